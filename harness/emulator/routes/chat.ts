import { randomUUID } from 'node:crypto';
import type { EmulatorContext } from '../context.ts';
import { tokenize } from '../generate/tokenize.ts';
import { prng, seedFrom } from '../generate/prng.ts';
import { dataEvent, jsonResponse, sseResponse } from '../http/respond.ts';
import { refusalBody, refusalResponse, type Refusal } from '../http/refusal.ts';
import { planChat, type ChatPlan } from './plan.ts';
import { isRecord, readJson, type RouteInput } from './request.ts';

/** POST /chat/completions on any chat base. */
export async function chatCompletions(input: RouteInput, release: () => void): Promise<Response> {
  const parsed = await readJson(input);
  if (!parsed.ok) return done(release, refusalResponse(parsed.refusal));
  const body = parsed.value;
  const plan = planChat(input.ctx, input.key, input.base, 'chat_completions', body);
  if ('status' in plan) return done(release, isRecord(body) && body.stream === true ? streamedRefusal(input.ctx, plan) : refusalResponse(plan));
  if (isRecord(body) && body.stream === true) return streamChat(input.ctx, streamHandedOver(input.ctx, plan), release);
  // The `completion-text-content-type` fault serves the same JSON as text/plain (a client reads it as text).
  return done(release, jsonResponse(handedOver(input.ctx, completionBody(input.ctx, plan)), 200, input.ctx.fault('completion-text-content-type') ? { 'content-type': 'text/plain; charset=utf-8' } : {}));
}

/**
 * The `answers-crossed` and `load-answers-crossed` faults: a completion answered over their
 * threshold of requests in flight goes to the next request so answered, and this one gets the
 * body made before it (the first over the threshold gets its own, which the next gets again).
 * Each request still gets one whole answer; at or below the threshold nothing is handed on.
 */
function handedOver(ctx: EmulatorContext, body: Record<string, unknown>): Record<string, unknown> {
  if (!ctx.underLoad('answers-crossed') && !ctx.underLoad('load-answers-crossed')) {
    delete ctx.crossing.held;
    return body;
  }
  const given = ctx.crossing.held ?? body;
  ctx.crossing.held = body;
  return given;
}

/** Refusals of what a request says: not of its key (401, 403) or its rate (429). */
const OF_THE_KEY_OR_RATE = new Set([401, 403, 429]);

/**
 * A refusal of a request sent with `stream: true`, as servers in the field answer it: the
 * `streamed-refusal-as-sse-error` fault opens a 200 stream holding the envelope as its one event
 * (clawrouter#101); `streamed-refusal-500` answers 500 and a server_error envelope
 * (ai-dial-adapter-openai#529). The same request unstreamed is refused as the spec says.
 */
function streamedRefusal(ctx: EmulatorContext, r: Refusal): Response {
  if (r.status < 400 || r.status >= 500 || OF_THE_KEY_OR_RATE.has(r.status)) return refusalResponse(r);
  if (ctx.fault('streamed-refusal-as-sse-error')) return sseResponse([dataEvent(refusalBody(r)), dataEvent('[DONE]')], { intervalMs: 0 });
  if (ctx.fault('streamed-refusal-500')) return refusalResponse({ status: 500, message: 'internal error', type: 'server_error', code: 'internal_error', param: null });
  return refusalResponse(r);
}

/** The stream plan `load-streams-crossed` hands to the next stream begun under load, per emulator (a plan is this route's own type). */
const heldStreams = new WeakMap<EmulatorContext, ChatPlan>();

/** The `load-streams-crossed` fault: as handedOver, for streams: a stream begun under load is the one planned for the stream before it. */
function streamHandedOver(ctx: EmulatorContext, plan: ChatPlan): ChatPlan {
  if (!ctx.underLoad('load-streams-crossed')) {
    heldStreams.delete(ctx);
    return plan;
  }
  const given = heldStreams.get(ctx) ?? plan;
  heldStreams.set(ctx, plan);
  return given;
}

function done(release: () => void, response: Response): Response {
  release();
  return response;
}

function usageBody(ctx: EmulatorContext, plan: ChatPlan): Record<string, unknown> {
  // Real endpoints add these details; they are extra fields, allowed by the description.
  return {
    ...usageFields(ctx, plan.usage),
    prompt_tokens_details: { cached_tokens: plan.usage.prompt_cache_hit_tokens },
    completion_tokens_details: { reasoning_tokens: plan.reasoningTokens },
  };
}

/**
 * The fields of `usage` as answers write them (chat and fill-in-the-middle, bodies and streams):
 * the `usage-no-cache-fields` fault leaves out the cache split, as many OpenAI-compatible servers
 * do (the OpenAI-style `prompt_tokens_details.cached_tokens` stays).
 */
export function usageFields(ctx: EmulatorContext, usage: ChatPlan['usage']): Record<string, unknown> {
  if (!ctx.fault('usage-no-cache-fields')) return { ...usage };
  const { prompt_cache_hit_tokens: _hit, prompt_cache_miss_tokens: _miss, ...rest } = usage;
  return rest;
}

/** What the `extra-fields` fault adds: a vendor field the description does not list. */
export const EXTRA_FIELD = { x_vendor_trace: 'emulator' } as const;

export function completionBody(ctx: EmulatorContext, plan: ChatPlan): Record<string, unknown> {
  const g = plan.generated;
  const message: Record<string, unknown> = {
    role: ctx.fault('message-wrong-role') ? 'bot' : 'assistant',
    content: ctx.fault('content-null') ? null : g.content,
    reasoning_content: g.reasoning,
  };
  // A gateway that rewrites one path only: /v1 loses the reasoning text and the cache split.
  const stripped = ctx.fault('v1-strips-fields') && plan.base === 'v1';
  if (stripped) delete message.reasoning_content;
  if (g.toolCalls.length > 0) {
    message.tool_calls = g.toolCalls.map((c, index) => ({ index, id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  const body: Record<string, unknown> = {
    id: ctx.fault('completion-bare-uuid-id') ? plan.id.replace(/^chatcmpl-/, '') : plan.id,
    object: ctx.fault('completion-wrong-object') ? 'chat.completions' : 'chat.completion',
    created: ctx.fault('completion-created-as-string') ? new Date(plan.created * 1000).toISOString() : plan.created,
    model: plan.modelId,
    choices: [
      {
        index: 0,
        message,
        logprobs: plan.logprobs ? logprobsOf(ctx, g.content, plan.topLogprobs) : null,
        finish_reason: ctx.fault('completion-bad-finish-reason') ? 'done' : g.finishReason,
      },
    ],
    usage: usageBody(ctx, plan),
  };
  if (ctx.fault('completion-missing-usage') || ctx.underLoad('load-usage-dropped')) delete body.usage;
  if (stripped && isRecord(body.usage)) {
    delete body.usage.prompt_cache_hit_tokens;
    delete body.usage.prompt_cache_miss_tokens;
  }
  return body;
}

/** Log-probabilities in the shape widely used clients read (the description does not show one). */
function logprobsOf(ctx: EmulatorContext, text: string, top: number): Record<string, unknown> {
  const rng = prng(seedFrom(ctx.seed, text));
  const entry = (token: string, logprob: number) => ({ token, logprob, bytes: [...Buffer.from(token, 'utf8')] });
  return {
    content: tokenize(text).map((token) => {
      const lp = -Math.round(rng.next() * 2000) / 1000;
      return { ...entry(token, lp), top_logprobs: Array.from({ length: top }, (_, i) => (i === 0 ? entry(token, lp) : entry(`${token}${i}`, lp - i))) };
    }),
  };
}

/** The stream the spec orders: role first, content pieces, a final chunk with finish_reason and usage, [DONE]. */
function streamChat(ctx: EmulatorContext, plan: ChatPlan, release: () => void): Response {
  return sseResponse(chunkEvents(ctx, plan), {
    intervalMs: ctx.streamPause,
    onClose: release,
    ...(ctx.fault('stream-json-content-type') ? { contentType: 'application/json' } : {}),
  });
}

/** The `load-streams-cut` fault: events a stream sends before it may be cut (the role chunk and two pieces). */
const STREAM_CUT_AFTER_EVENTS = 3;

function* chunkEvents(ctx: EmulatorContext, plan: ChatPlan): Generator<string> {
  const g = plan.generated;
  const object = ctx.fault('chunk-wrong-object') ? 'chat.completion' : 'chat.completion.chunk';
  const idFor = () => (ctx.fault('stream-id-changes') ? `chatcmpl-${randomUUID()}` : plan.id);
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => ({
    id: idFor(),
    object,
    created: plan.created,
    model: plan.modelId,
    choices: ctx.fault('stream-no-choices') ? [] : [{ ...(ctx.fault('stream-no-choice-index') ? {} : { index: 0 }), delta, logprobs: null, finish_reason: ctx.fault('stream-finish-every-chunk') ? 'stop' : finish }],
    ...extra,
    ...(ctx.fault('extra-fields') ? EXTRA_FIELD : {}),
  });

  // `load-streams-cut`: under load, the stream ends after a few events, and always before its final chunk.
  let sent = 1;
  const cut = (final: boolean) => (final || sent >= STREAM_CUT_AFTER_EVENTS) && ctx.underLoad('load-streams-cut');
  const first: Record<string, unknown> = ctx.fault('stream-no-role') ? { content: '' } : { role: 'assistant', content: '' };
  yield dataEvent(chunk(first, null));
  const pieces: Record<string, unknown>[] = [];
  if (g.reasoning) for (const t of tokenize(g.reasoning)) pieces.push({ reasoning_content: t });
  else if (ctx.fault('stream-reasoning-when-disabled')) for (const t of tokenize('Thinking about it anyway.')) pieces.push({ reasoning_content: t });
  for (const t of ctx.fault('non-ascii-split-surrogates') ? surrogateHalves(tokenize(g.content)) : tokenize(g.content)) pieces.push({ content: ctx.fault('content-null') ? null : t });
  g.toolCalls.forEach((c, index) => {
    const at = ctx.fault('stream-tool-call-no-index') ? {} : { index };
    pieces.push({ tool_calls: [{ ...at, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] });
    for (const part of tokenize(c.arguments)) pieces.push({ tool_calls: [{ ...at, function: { arguments: part } }] });
  });
  const middle = Math.floor(pieces.length / 2);
  for (const [i, delta] of pieces.entries()) {
    if (cut(false)) return;
    sent += 1;
    if (ctx.fault('stream-malformed-event') && i === middle) {
      yield 'data: {"id": "broken\n\n';
      continue;
    }
    yield dataEvent(chunk(delta, null));
  }
  // Usage rides on the final chunk, as production sends it (captures stream-chat-03 and -05); the
  // `stream-usage-separate-chunk` fault sends it after, in a chunk of its own with `choices: []`.
  if (cut(true)) return;
  const separateUsage = ctx.fault('stream-usage-separate-chunk') || ctx.fault('stream-usage-chunk-no-final');
  // `load-usage-dropped`: under load, no usage, wherever it would ride.
  const usage = ctx.underLoad('load-usage-dropped') ? {} : { usage: usageBody(ctx, plan) };
  if (!ctx.fault('stream-no-final-chunk') && !ctx.fault('stream-usage-chunk-no-final')) yield dataEvent(chunk({}, g.finishReason, separateUsage ? {} : usage));
  if (separateUsage) yield dataEvent({ ...chunk({}, null, usage), choices: [] });
  if (ctx.fault('stream-empty-chunk-after-final')) yield dataEvent({ ...chunk({}, null), choices: [] });
  if (!ctx.fault('stream-no-done')) yield dataEvent('[DONE]');
  if (ctx.fault('stream-data-after-done')) yield dataEvent(chunk({ content: 'late' }, null));
}

/** The `non-ascii-split-surrogates` fault: each piece holding a character beyond U+FFFF is cut between its two UTF-16 halves. */
function surrogateHalves(pieces: readonly string[]): string[] {
  return pieces.flatMap((p) => {
    const at = [...p].findIndex((c) => c.length === 2);
    if (at < 0) return [p];
    const cut = [...p].slice(0, at).join('').length + 1;
    return [p.slice(0, cut), ...surrogateHalves([p.slice(cut)])].filter((x) => x !== '');
  });
}
