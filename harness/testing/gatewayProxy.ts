// Test support: a gateway of one behaviour between the harness (its client) and the harness as its
// upstream (run --upstream-port), standing for what real gateways do to the traffic they carry.
import { serveFetch, type FetchServer } from '#harness/core/http/fetchBridge.ts';
import { isRecord } from '#harness/core/isRecord.ts';

/**
 * What the gateway does. Those that change what the service said or was asked, or that misuse it,
 * each break one rule of gateway.*; the rest change only what carries no meaning (or retry within
 * the guidance) and must leave a run green.
 */
export const GATEWAY_BEHAVIOURS = [
  'transparent',
  'recut-streams',
  'reserialise-json',
  'rewrite-ids',
  'retry-5xx-once',
  'usage-recounted',
  'cache-fields-dropped',
  'reasoning-dropped',
  'parameter-dropped',
  'parameter-replaced',
  'error-message-replaced',
  '4xx-turned-500',
  '400-retried',
  'retry-after-dropped',
  'stream-held',
] as const;
export type GatewayBehaviour = (typeof GATEWAY_BEHAVIOURS)[number];

type Json = Record<string, unknown>;

/** A JSON value with its object keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]));
}

/** A body written again: other key order everywhere, and fields of the gateway's own at the top. */
const reserialised = (value: unknown): unknown => (isRecord(value) ? { ...(reversed(value) as Json), x_gateway_meta: { hop: 1 }, provider: 'upstream' } : reversed(value));

/** Rewrites one answer body or stream chunk (parsed), as the behaviour does. */
function rewriteAnswer(b: GatewayBehaviour, body: unknown, counter: () => number): unknown {
  if (!isRecord(body)) return body;
  const usage = isRecord(body.usage) ? (body.usage as Json) : undefined;
  const choices = Array.isArray(body.choices) ? (body.choices as Json[]) : [];
  switch (b) {
    case 'reserialise-json':
      return reserialised(body);
    case 'rewrite-ids':
      return typeof body.id === 'string' ? { ...body, id: `gw-${counter()}` } : body;
    case 'usage-recounted':
      // Its own count, adding up as a total should: every usage check of the answer alone passes.
      if (usage && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number') {
        const [p, c] = [usage.prompt_tokens + 5, Math.max(0, usage.completion_tokens - 2)];
        return { ...body, usage: { ...usage, prompt_tokens: p, completion_tokens: c, total_tokens: p + c, ...(typeof usage.prompt_cache_miss_tokens === 'number' ? { prompt_cache_miss_tokens: usage.prompt_cache_miss_tokens + 5 } : {}) } };
      }
      return body;
    case 'cache-fields-dropped':
      if (!usage) return body;
      return { ...body, usage: Object.fromEntries(Object.entries(usage).filter(([k]) => !k.startsWith('prompt_cache_'))) };
    case 'reasoning-dropped':
      return { ...body, choices: choices.map((c) => ({ ...c, ...(isRecord(c.message) ? { message: without(c.message, 'reasoning_content') } : {}), ...(isRecord(c.delta) ? { delta: without(c.delta, 'reasoning_content') } : {}) })) };
    default:
      return body;
  }
}

const without = (o: Json, key: string): Json => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

/** Rewrites a request body, as the behaviour does. */
function rewriteRequest(b: GatewayBehaviour, body: unknown): unknown {
  if (!isRecord(body)) return body;
  if (b === 'parameter-dropped' && 'stop' in body) return without(body, 'stop');
  // Clamped to what the gateway's provider takes by default: silently another request.
  if (b === 'parameter-replaced' && typeof body.temperature === 'number' && body.temperature !== 1) return { ...body, temperature: 1 };
  if (b === 'reserialise-json') return reserialised(body);
  return body;
}

/** Rewrites each `data:` event of an SSE text. */
function rewriteEvents(text: string, rewrite: (chunk: unknown) => unknown): string {
  return text.replace(/^data: (.+)$/gm, (line, data: string) => {
    if (data === '[DONE]') return line;
    try {
      return `data: ${JSON.stringify(rewrite(JSON.parse(data)))}`;
    } catch {
      return line;
    }
  });
}

/** The gateway, on 127.0.0.1, forwarding to `upstream` (the harness's upstream port) with the client's headers. */
export async function startGatewayProxy(upstream: string, behaviour: GatewayBehaviour): Promise<FetchServer> {
  let ids = 0;
  const counter = () => ++ids;
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const headers = new Headers([...request.headers].filter(([n]) => !['host', 'connection', 'content-length'].includes(n)));
    const raw = request.method === 'GET' ? undefined : await request.text();
    let body = raw;
    if (raw !== undefined && raw !== '') {
      try {
        body = JSON.stringify(rewriteRequest(behaviour, JSON.parse(raw)));
      } catch {
        body = raw;
      }
    }
    const ask = () => fetch(`${upstream}${url.pathname}${url.search}`, { method: request.method, headers, ...(body !== undefined ? { body } : {}) });
    let answer = await ask();
    if (behaviour === 'retry-5xx-once' && answer.status >= 500) {
      await answer.body?.cancel();
      answer = await ask();
    }
    if (behaviour === '400-retried' && answer.status === 400) {
      for (let i = 0; i < 2; i++) {
        await answer.body?.cancel();
        answer = await ask();
      }
    }
    const out = new Headers([...answer.headers].filter(([n]) => !['content-length', 'transfer-encoding', 'content-encoding'].includes(n)));
    if (behaviour === 'retry-after-dropped') out.delete('retry-after');
    const type = answer.headers.get('content-type') ?? '';
    let status = answer.status;
    if (behaviour === '4xx-turned-500' && status >= 400 && status < 500 && status !== 429) status = 500;
    if (type.includes('event-stream') && answer.body) {
      if (behaviour === 'stream-held') return new Response(rewriteEvents(await answer.text(), (c) => c), { status, headers: out });
      return new Response(answer.body.pipeThrough(eventRewriter(behaviour, counter)), { status, headers: out });
    }
    const text = await answer.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      return new Response(text, { status, headers: out });
    }
    if (behaviour === 'error-message-replaced' && isRecord(parsed) && isRecord(parsed.error)) parsed = { ...parsed, error: { ...parsed.error, message: 'The upstream provider returned an error.' } };
    return new Response(JSON.stringify(rewriteAnswer(behaviour, parsed, counter)), { status, headers: out });
  };
  return serveFetch(handle, { failure: (e) => new Response(JSON.stringify({ error: { message: String(e), type: 'gateway_error' } }), { status: 502 }) });
}

/** Streams rewritten event by event as they come; `recut-streams` passes the bytes on in pieces of other sizes. */
function eventRewriter(behaviour: GatewayBehaviour, counter: () => number): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffered = '';
  return new TransformStream({
    transform(chunk, controller) {
      if (behaviour === 'recut-streams') {
        // Every byte passed on at once, in pieces of 7: boundaries that fall inside events and lines.
        for (let i = 0; i < chunk.length; i += 7) controller.enqueue(chunk.slice(i, i + 7));
        return;
      }
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        controller.enqueue(encoder.encode(rewriteEvents(buffered.slice(0, end + 2), (c) => rewriteAnswer(behaviour, c, counter))));
        buffered = buffered.slice(end + 2);
      }
    },
    flush(controller) {
      if (buffered !== '') controller.enqueue(encoder.encode(buffered));
    },
  });
}
