import type { CheckContext, CheckRequest, CheckResponse } from '../context.ts';
import { readJson } from './body.ts';
import { chat } from './requests.ts';
import { chunkJudge, readStream, type ReadStream } from './stream.ts';

/**
 * One response shared by every check that only judges its shape, per model and kind: a run sends
 * each kind of request once, not once per check. Keyed by model so models never share answers;
 * targets never share it either, because the runner starts a fresh vitest pool (a new worker, so a
 * new module instance) for each target.
 */
const cache = new Map<string, Promise<{ res: CheckResponse; body?: unknown; stream?: ReadStream; unreadable?: string }>>();

export function sample(ctx: CheckContext, kind: string, make: () => CheckRequest, streamed = false) {
  const key = `${ctx.targetModel}|${kind}`;
  let hit = cache.get(key);
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
    cache.set(key, hit);
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
