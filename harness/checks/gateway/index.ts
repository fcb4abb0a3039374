import type { Spec } from '#harness/spec/model.ts';
import type { Check } from '../define.ts';
import { answerChecks, messagesAnswerChecks } from './answers.ts';
import { errorChecks, messagesErrorChecks } from './errors.ts';
import { messagesParameterChecks, parameterChecks } from './parameters.ts';
import { retryChecks } from './retries.ts';
import { streamChecks } from './streams.ts';
import { messagesUsageChecks, usageChecks } from './usage.ts';

/**
 * What a gateway changed between its client and the service it fronts (issue 33), judged with the
 * harness as the upstream: every request carries a marker, and each answer is compared with what
 * the upstream received and sent for it. A gateway that offers "the service" is held to what the
 * description says of the service: what the text states or entails is must, what it advises should.
 *
 * One module per subject judged (parameters, answers, usage, errors, retries, streams), each with
 * the chat format's checks and, where the messages format has them (issue 49, item 3), that
 * format's, judged through the one table of the two formats (translation.ts). The lists below are
 * the order a run declares them in: the chat format's, then the messages format's.
 */
export function gatewayChecks(spec: Spec): Check[] {
  return [...parameterChecks(spec), ...answerChecks(spec), ...usageChecks(), ...errorChecks(spec), ...retryChecks(spec), ...streamChecks()];
}

/**
 * What a gateway changes of a messages-format request it answers from a chat-completions upstream,
 * each pair judged as the chat format's are. A gateway that passes the format on unchanged is
 * judged by the same table read as the identity. The strengths are the description's: of this
 * format it shows `model`, `max_tokens` and `messages` and the error envelope, so `max_tokens` and
 * an error's status are must, an error's words should (as for the chat format), and every other
 * parameter, stop reason and count is the format's convention (messages-format.yaml
 * translated-request, translated-answer): advisory.
 */
export function gatewayMessagesChecks(spec: Spec): Check[] {
  return [...messagesParameterChecks(spec), ...messagesAnswerChecks(spec), ...messagesUsageChecks(spec), ...messagesErrorChecks(spec)];
}
