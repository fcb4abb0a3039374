import type { CheckContext, CheckOutcome } from '../context.ts';
import { get, isObject } from '../support/body.ts';
import { inconclusive } from '../support/cooperation.ts';
import { handOff, handOffOnModel, ownerFor, REQUIRED_FORCES_CALL, shapeHandOff, statusHandOff } from '../support/handoff.ts';
import { failure, statusDefect } from '../support/outcome.ts';
import { toolCallCut } from '../support/premises.ts';
import { UNKNOWN_MODEL } from '../support/build.ts';
import { chatBody, messagesRequest } from '../support/requests.ts';
import { endedUnfinished, type ReadStream } from '../support/stream.ts';
import { messagesAnswer, messagesStreamed, plainCompletion, sample, streamedCompletion, streamedToolCall, type SharedAnswer } from '../support/samples.ts';
import type { SseEvent } from '#harness/core/sseFold.ts';

/**
 * The answers the client checks hand over (every chat client the same ones), each with the premise a
 * client verdict on it rests on: an answer to hand at all. Where the premise fails the verdict is
 * inconclusive; where another check judges that answer (its status, its shape), the defect is handed
 * to it (support/handoff.ts).
 */
export type Handed<T extends SharedAnswer = SharedAnswer> = { seen: T } | { outcome: CheckOutcome };

/** The plain completion, answered 200 with a JSON body. */
export async function completionToHand(ctx: CheckContext): Promise<Handed> {
  const seen = await plainCompletion(ctx);
  if (seen.res.status !== 200 || seen.body === undefined) return { outcome: statusHandOff('chat_completion', seen.res, `the completion was answered HTTP ${seen.res.status}${seen.unreadable ? ` (${seen.unreadable})` : ''}: no completion to hand the client`) };
  // A client that copes with a body holding no message coped with nothing a completion says.
  if (!isObject(get(seen.body, 'choices', 0, 'message'))) return { outcome: shapeHandOff(ctx, 'chat_completion', seen.res, seen.body, 'the completion carries no message (choices[0].message) to hand the client', '/choices/0/message') };
  return { seen };
}

/** A stream read to its end: the plain one, or (`tool-call`) the one asked for a required tool call, which must make one. */
export async function streamToHand(ctx: CheckContext, which: 'plain' | 'tool-call' = 'plain'): Promise<Handed<SharedAnswer & { stream: ReadStream }>> {
  const seen = await (which === 'plain' ? streamedCompletion(ctx) : streamedToolCall(ctx));
  const stream = seen.stream;
  const judgedBy = which === 'plain' ? 'stream.events.done-last' : 'answer.stream-tool-call.names-an-offered-function';
  if (seen.res.status !== 200 || stream === undefined) return { outcome: handOff(judgedBy, failure(`the ${which === 'plain' ? '' : 'tool-call '}stream was answered HTTP ${seen.res.status}: no stream to hand the client`, seen.res, statusDefect(seen.res))) };
  if (stream.error !== undefined) return { outcome: inconclusive(`the stream did not arrive whole (${stream.error}), so what it adds up to cannot be compared`) };
  const unfinished = endedUnfinished(stream, seen.res);
  if (unfinished) return { outcome: unfinished };
  const cut = which === 'tool-call' ? toolCallCut(stream.message.finishReason, get(stream.message.usage, 'completion_tokens')) : undefined;
  if (cut) return { outcome: cut };
  if (which === 'tool-call' && stream.message.toolCalls.length === 0) return { outcome: handOffOnModel(ownerFor(REQUIRED_FORCES_CALL, true), failure('the stream makes no tool call although tool_choice is "required": no call to hand the client', seen.res)) };
  return { seen: { ...seen, stream } };
}

/** The refusal of an empty `messages`, the one schema.error-envelope.matches-schema judges: one answer for every check. */
export async function refusalToHand(ctx: CheckContext): Promise<Handed> {
  const seen = await sample(ctx, { base: 'base_url', method: 'POST', path: '/chat/completions', body: chatBody(ctx, { messages: [] }) });
  if (seen.res.status < 400) return { outcome: inconclusive(`an empty \`messages\` was accepted (HTTP ${seen.res.status}): there is no refusal to hand the client`) };
  return { seen };
}

/** The messages-format reply, answered 200 with a JSON body. */
export async function messagesReplyToHand(ctx: CheckContext): Promise<Handed> {
  const seen = await messagesAnswer(ctx);
  if (seen.res.status !== 200 || seen.body === undefined) return { outcome: statusHandOff('messages_response', seen.res, `the messages-format request was answered HTTP ${seen.res.status}${seen.unreadable ? ` (${seen.unreadable})` : ''}: no reply to hand the client`) };
  if (!Array.isArray(get(seen.body, 'content'))) return { outcome: shapeHandOff(ctx, 'messages_response', seen.res, seen.body, 'the messages-format reply carries no `content` to hand the client', '/content') };
  return { seen };
}

/** The messages-format stream, answered 200 with events. */
export async function messagesStreamToHand(ctx: CheckContext): Promise<Handed<SharedAnswer & { events: SseEvent[] }>> {
  const seen = await messagesStreamed(ctx);
  const events = seen.events ?? [];
  if (seen.res.status !== 200 || events.length === 0) return { outcome: handOff('messages.stream.events-in-format-order', failure(`the streamed messages-format request was answered HTTP ${seen.res.status}${seen.res.status === 200 ? ' with no event' : ''}: no stream to hand the client`, seen.res, seen.res.status === 200 ? {} : statusDefect(seen.res))) };
  return { seen: { ...seen, events } };
}

/** The refusal of an unknown model in the messages format, the one the messages error checks judge. */
export async function messagesRefusalToHand(ctx: CheckContext): Promise<Handed> {
  const seen = await sample(ctx, messagesRequest(ctx, { model: UNKNOWN_MODEL }));
  if (seen.res.status < 400) return { outcome: inconclusive(`an unknown model was accepted (HTTP ${seen.res.status}): there is no refusal to hand the client`) };
  return { seen };
}
