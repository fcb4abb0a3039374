import type { Model, Spec } from '#harness/spec/model.ts';
import type { CheckContext } from '../context.ts';
import { defineCheck, gradeOf, messagesModels, type Check } from '../define.ts';
import { behaviourOf } from '../support/behaviour.ts';
import { get, isObject } from '../support/body.ts';
import { UNKNOWN_MODEL } from '../support/build.ts';
import { failure, outcomeOf, pass, shown, skip } from '../support/outcome.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { messagesRequest } from '../support/requests.ts';
import { sample, messagesAnswer, settled } from '../support/samples.ts';
import { statusHandOff } from '../support/handoff.ts';

/** The format's errors are the service's, not a model's: judged once, on the default model. */
const messagesDefaultModel = (m: Model) => messagesModels(m) && m.default;

/** The `stop_reason` values of the messages format's public convention. */
export const STOP_REASONS = ['end_turn', 'max_tokens', 'stop_sequence', 'tool_use'];

const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/** A request naming a model the service does not have, in the messages format: shared by the error checks. */
const unknownModel = (ctx: CheckContext) => sample(ctx, messagesRequest(ctx, { model: UNKNOWN_MODEL }));

/** What a messages-format reply departs from in that format's convention (the description shows only its `content`). */
export function shapeDepartures(body: unknown): string[] {
  const out: string[] = [];
  if (typeof get(body, 'id') !== 'string') out.push(`\`id\` is ${shown(get(body, 'id'))}, not a string`);
  if (get(body, 'type') !== 'message') out.push(`\`type\` is ${shown(get(body, 'type'))}, not "message"`);
  if (get(body, 'role') !== 'assistant') out.push(`\`role\` is ${shown(get(body, 'role'))}, not "assistant"`);
  if (!STOP_REASONS.includes(get(body, 'stop_reason') as string)) out.push(`\`stop_reason\` is ${shown(get(body, 'stop_reason'))}, not one of ${STOP_REASONS.join(', ')}`);
  for (const k of ['input_tokens', 'output_tokens']) if (!isCount(get(body, 'usage', k))) out.push(`\`usage.${k}\` is ${shown(get(body, 'usage', k))}, not a count`);
  const content = get(body, 'content');
  if (Array.isArray(content)) content.forEach((block, i) => {
    if (!isObject(block) || typeof block.type !== 'string') out.push(`\`content[${i}]\` has no \`type\``);
  });
  return out;
}

/** The messages format's reply and errors beyond what the description shows (objects.yaml judges that part). */
export function messagesFormatChecks(spec: Spec): Check[] {
  const shape = behaviourOf(spec.messages_format, 'response-shape', 'messages_format');
  const envelope = behaviourOf(spec.messages_format, 'error-envelope', 'messages_format');
  const convention = behaviourOf(spec.messages_format, 'error-convention', 'messages_format');
  // "The same key and model ids are used": an unknown id is refused as the chat format refuses it.
  const unknownModelRule = spec.rules.find((r) => r.id === 'chat.model.valid-id');
  if (!unknownModelRule) throw new Error('spec rules has no `chat.model.valid-id`, which the messages-format error check takes its statuses from');
  return [
    defineCheck({
      id: 'messages.response.follows-format-convention',
      title: 'a messages-format reply has the format\'s id, type, role, stop_reason and usage',
      ...gradeOf(shape),
      specRefs: ['messages_format.response-shape'],
      appliesTo: messagesModels,
      async run(ctx) {
        const { res, body, unreadable } = await messagesAnswer(ctx);
        if (res.status !== 200 || body === undefined) return statusHandOff('messages_response', res, `the messages-format request was answered HTTP ${res.status}${unreadable ? ` (${unreadable})` : ''}: no reply to judge`);
        return outcomeOf(shapeDepartures(body).map((d) => failure(`the reply departs from the messages format's convention: ${d}`, res)));
      },
    }),
    defineCheck({
      id: 'messages.error.unknown-model-refused-with-envelope',
      title: 'a messages-format request naming an unknown model is refused with the description\'s error envelope',
      ...gradeOf(envelope),
      specRefs: ['messages_format.error-envelope', 'errors.envelope', 'rules.chat.model.valid-id'],
      appliesTo: messagesDefaultModel,
      async run(ctx) {
        // A refusal shows the model was judged only where a valid messages request is accepted: the shared answer, asked beside it.
        const control = messagesAnswer(ctx);
        const { res } = await unknownModel(ctx);
        const failures = await judgeRefusal(ctx, res, unknownModelRule.expect, `a messages-format request naming the unknown model ${UNKNOWN_MODEL}`);
        if (failures.length > 0) return (await settled(control), outcomeOf(failures));
        const { res: valid } = await control;
        return valid.status === 200 ? pass() : skip(`inconclusive: a valid messages-format request is refused too (HTTP ${valid.status}): refusing the unknown model shows nothing of the model`, 'inconclusive');
      },
    }),
    defineCheck({
      id: 'messages.error.says-type-error',
      title: 'a messages-format error says `type` "error" at its top level, as that format\'s clients read',
      ...gradeOf(convention),
      specRefs: ['messages_format.error-convention'],
      appliesTo: messagesDefaultModel,
      async run(ctx) {
        const { res, body } = await unknownModel(ctx);
        if (res.status < 400 || body === undefined) return skip(`no error body to judge: the request naming an unknown model was answered HTTP ${res.status}${body === undefined ? ' without a JSON body' : ''}`, 'inconclusive');
        const type = get(body, 'type');
        return type === 'error' ? pass() : outcomeOf([failure(`the error body's top-level \`type\` is ${shown(type)}, where the messages format's clients read "error"`, res)]);
      },
    }),
  ];
}
