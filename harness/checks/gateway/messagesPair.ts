import { isRecord } from '#harness/core/isRecord.ts';
import { unmarked } from '#harness/core/marker.ts';
import type { Failure } from '#harness/core/outcome.ts';
import { foldSse } from '#harness/core/sseFold.ts';
import type { CheckContext, CheckRequest } from '../context.ts';
import { failure } from '../support/outcome.ts';
import { judgedThrough, upstreamBody, type Judged } from './pair.ts';
import { upstreamFormat } from './translation.ts';

type Json = Record<string, unknown>;

/** A messages-format request's pair, with the format the gateway asked its upstream in. */
export type MessagesJudged = Judged & { format: 'chat' | 'messages' };

/** One messages-format request through the gateway as a pair to judge, or why none is judged. */
export async function messagesPair(ctx: CheckContext, request: CheckRequest): Promise<MessagesJudged | { why: string }> {
  const j = await judgedThrough(ctx, request);
  if ('why' in j) return j;
  const format = upstreamFormat(j.up.request.path);
  if (format === undefined) return { why: `the gateway asked the upstream at ${j.up.request.path}, neither the chat-completions nor the messages path` };
  return { ...j, format };
}

/** The client's body and what the upstream got, unmarked. */
export const bodies = ({ pair, up }: Judged): { client: Json; upstream: Json } => {
  const [c, u] = [unmarked(pair.res.exchange.request.body), unmarked(upstreamBody(up))];
  return { client: isRecord(c) ? c : {}, upstream: isRecord(u) ? u : {} };
};

/**
 * An answer as its evidence shows it: a body cut to 400 characters; a stream, its events that say
 * how it ended or what it counted (the chat stream's usage and finish, message_start and message_delta).
 */
function excerpt(text: string): string {
  const events = foldSse(text).events.flatMap((e) => (e.kind === 'data' && /"usage"|"finish_reason":"|"stop_reason":"|message_start|message_delta/.test(e.data) ? [`${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}`] : []));
  if (events.length === 0) return text.slice(0, 400);
  return events.map((e) => (e.length > 600 ? `${e.slice(0, 597)}...` : e)).join('\n');
}

/** Both answers, as evidence. */
const both = ({ pair, up }: Judged) => `; the upstream's answer: ${excerpt(up.response.body)}; the client's: ${excerpt(pair.text)}`;

/** A failure with both answers in its message. */
export const withBodies = (f: Failure, j: Judged): Failure => ({ ...f, message: `${f.message}${both(j)}` });

/** A value of the client's answer (`stop_reason`, `usage`) that is not what the upstream's means, both answers as evidence. */
export function answerFailure(what: string, field: 'stop_reason' | 'usage', j: Judged): Failure {
  return failure(`${what}${both(j)}`, j.pair.res, { path: `/${field}`, defect: { kind: 'value', what, path: field } });
}
