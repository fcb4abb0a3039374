import type { CheckContext, CheckRequest, CheckResponse } from '../context.ts';
import { readJson } from './body.ts';
import { chat, messagesRequest } from './requests.ts';
import { chunkJudge, readStream, type ReadStream } from './stream.ts';

type Sample = { res: CheckResponse; body?: unknown; stream?: ReadStream; unreadable?: string };

/**
 * One response shared by every check that only judges its shape, per model and kind: a run sends
 * each kind of request once, not once per check. Kept in the run's own store (`ctx.samples`), keyed
 * by model, so neither models nor targets (several may run in one process) share answers.
 */
export function sample(ctx: CheckContext, kind: string, make: () => CheckRequest, streamed = false): Promise<Sample> {
  const key = `${ctx.targetModel}|${kind}`;
  let hit = ctx.samples.get(key) as Promise<Sample> | undefined;
  if (!hit) {
    hit = (async () => {
      const res = await ctx.send(make());
      // Each chunk is judged as it arrives (the schema checks read the findings), not kept.
      if (streamed) return { res, stream: await readStream(res, { judge: chunkJudge(ctx.spec, ctx.options.strict) }) };
      // Why there is no body (not JSON, not UTF-8, cut at the size cap) is kept for the message; a
      // harness error (reset, timeout) rejects the sample, and every check sharing it ends in error.
      const read = await readJson(res);
      return read.ok ? { res, body: read.body } : { res, unreadable: read.why };
    })();
    ctx.samples.set(key, hit);
  }
  return hit;
}

/**
 * The answer to a control request, shared by every check that sends the same one (a rule and its
 * streamed twin, the stop checks): keyed by the request itself.
 */
export const controlSample = (ctx: CheckContext, request: CheckRequest) => sample(ctx, `control ${JSON.stringify(request)}`, () => request);

/** The plain completion every shape check of chat_completion judges. */
export const plainCompletion = (ctx: CheckContext) => sample(ctx, 'chat', () => chat(ctx));
export const streamedCompletion = (ctx: CheckContext) => sample(ctx, 'chat-stream', () => chat(ctx, { stream: true }), true);
/** A stream asked to carry usage (`stream_options.include_usage`, what clients send): the usage checks judge it. */
export const streamedWithUsage = (ctx: CheckContext) => sample(ctx, 'chat-stream-usage', () => chat(ctx, { stream: true, stream_options: { include_usage: true } }), true);
/** The plain messages-format answer every check of that format's reply judges. */
export const messagesAnswer = (ctx: CheckContext) => sample(ctx, 'messages', () => messagesRequest(ctx));
