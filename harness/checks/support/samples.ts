import type { SseEvent } from '#harness/core/sseFold.ts';
import type { CheckContext, CheckRequest, CheckResponse } from '../context.ts';
import { readJson } from './body.ts';
import { chat, messagesRequest, toolCallRequest } from './requests.ts';
import { chunkJudge, readStream, type ReadStream } from './stream.ts';

/** One answer as every check asking its request reads it: the response, and its body or stream read once. */
export type SharedAnswer = { res: CheckResponse; body?: unknown; stream?: ReadStream; events?: SseEvent[]; unreadable?: string; first?: SseEvent };

/**
 * How an answer is read, once, for every check sharing it: its JSON body; a chat stream's chunks,
 * each judged as it arrives (`chunks`); a stream's events as sent (`events`, a format whose
 * events are not chat chunks); or (`head`) a stream's status, headers and first event, then closed:
 * a probe of acceptance whose answer could run long (max_tokens at its bound) never holds the
 * endpoint to a long generation (a JSON answer, a refusal, is read as `body`).
 */
export type ReadAs = 'body' | 'chunks' | 'events' | 'head';

/**
 * The one answer to a request, shared by every check of the run that asks the same thing: the
 * shape checks of a plain completion, a refusal check's control and the check whose verdict that
 * request is, the same model-independent request asked for two models. Keyed by the request itself
 * (base, method, path, credential form, retry policy, body), so sharing is what a check declares by
 * asking through here, and two requests that differ in anything are two answers. Kept in the run's
 * own store (`ctx.samples`): neither targets nor repetitions share answers. A check that needs a
 * fresh answer (a second turn, a balance read after a spend) sends with `ctx.send` instead.
 */
export function sample(ctx: CheckContext, request: CheckRequest, readAs: ReadAs = 'body'): Promise<SharedAnswer> {
  const key = keyOf(request, readAs);
  // Only sample() puts answers in the store, each a SharedAnswer.
  let hit = ctx.samples.get(key) as Promise<SharedAnswer> | undefined;
  if (!hit) {
    hit = (async () => {
      const res = await ctx.send(request);
      // Each chunk is judged as it arrives (the schema checks read the findings), not kept.
      if (readAs === 'chunks') return { res, stream: await readStream(res, { judge: chunkJudge(ctx.spec, ctx.options.strict) }) };
      if (readAs === 'events') return { res, events: await eventsOf(res) };
      if (readAs === 'head' && isEventStream(res)) return { res, ...(await firstEventOf(res)) };
      // Why there is no body (not JSON, not UTF-8, cut at the size cap) is kept for the message; a
      // harness error (reset, timeout) rejects the sample, and every check sharing it ends in error.
      const read = await readJson(res);
      return read.ok ? { res, body: read.body } : { res, unreadable: read.why };
    })();
    // Whoever awaits it sees a rejection; an answer asked ahead of need (a control sent beside what it
    // vouches for) and then not awaited, since the verdict came first, must not be an unhandled one.
    hit.catch(() => undefined);
    ctx.samples.set(key, hit);
  }
  return hit;
}

function keyOf(r: CheckRequest, readAs: ReadAs): string {
  return JSON.stringify([r.base, r.method, r.path, r.auth ?? 'key', r.retry ?? true, readAs, r.rawBody ?? null, r.body ?? null]);
}

const isEventStream = (res: CheckResponse): boolean => (res.headers['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');

/** A stream's first data event, then the stream closed (breaking off cancels the body and frees the slot). */
async function firstEventOf(res: CheckResponse): Promise<{ first?: SseEvent }> {
  for await (const e of res.events()) if (e.kind === 'data') return { first: e };
  return {};
}

/** A stream's data events, in order, read to its end (comments and keep-alives left out). */
async function eventsOf(res: CheckResponse): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const e of res.events()) if (e.kind === 'data') events.push(e);
  return events;
}

/** The plain completion every shape check of chat_completion judges. */
export const plainCompletion = (ctx: CheckContext) => sample(ctx, chat(ctx));
export const streamedCompletion = (ctx: CheckContext) => sample(ctx, chat(ctx, { stream: true }), 'chunks');
/** A stream asked to carry usage (`stream_options.include_usage`, what clients send): the usage checks judge it. */
export const streamedWithUsage = (ctx: CheckContext) => sample(ctx, chat(ctx, { stream: true, stream_options: { include_usage: true } }), 'chunks');
/** A stream making a tool call: the meaning check of its function's name judges it, and it is handed to the clients. */
export const streamedToolCall = (ctx: CheckContext) => sample(ctx, toolCallRequest(ctx, true), 'chunks');
/** The plain messages-format answer every check of that format's reply judges. */
export const messagesAnswer = (ctx: CheckContext) => sample(ctx, messagesRequest(ctx));
/** The streamed messages-format answer: its event order is judged, and it is handed to the messages client. */
export const messagesStreamed = (ctx: CheckContext) => sample(ctx, messagesRequest(ctx, { stream: true }), 'events');

/**
 * Waits for answers asked alongside (a control, a request the verdict did not need), ignoring their
 * failure: a check that has its verdict before them still ends after them, so what it judged (the
 * answers the runner counts) is the same run after run, not whichever came back first.
 */
export async function settled(...asked: readonly (Promise<unknown> | undefined)[]): Promise<void> {
  await Promise.all(asked.map((a) => a?.catch(() => undefined)));
}
