import { serveFetch } from '#harness/core/http/fetchBridge.ts';
import { chunkTextLength } from '#harness/core/chunkText.ts';
import { SseFold, sseFrame, type SseEvent } from '#harness/core/sseFold.ts';
import { faultName, type UpstreamExchange, type UpstreamFault, type UpstreamSide } from '#harness/core/upstream.ts';
import { tapped } from './tap.ts';

export interface UpstreamOptions {
  /** Where the gateway reaches it: 127.0.0.1:port (0: an ephemeral port, for tests). */
  port: number;
  /** Where each request goes on to: the embedded emulator (`emulator`, with a key it accepts) or a real service (`tap`, the gateway's own key passed on). */
  forward: { kind: 'emulator'; url: string; key: string } | { kind: 'tap'; url: string };
  /** The key the gateway must present (--upstream-key-env); undefined: any key is accepted. */
  acceptKey?: string;
  /** The service's error answer for a status: the envelope the description gives, with Retry-After on a 429. */
  errorAnswer(status: number, retryAfterSeconds?: number): Response;
  /** Redacted from everything recorded. */
  secrets: readonly string[];
}

/** Headers that belong to one hop, or that fetch has already undone (a decompressed body keeps no encoding). */
const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding', 'content-encoding']);

/**
 * The harness as a gateway's upstream (issue 33): a loopback server the gateway is configured to
 * call, in front of the embedded emulator (faults on purpose possible) or a real service (a tap:
 * nothing injected). Every exchange is recorded (tap.ts), paired with the client's by its marker.
 */
export async function startUpstream(options: UpstreamOptions): Promise<UpstreamSide> {
  const planned = new Map<string, { fault: UpstreamFault; used: number }>();
  const seen = new Map<string, { chars: number; wake?: () => void }>();
  const faults = options.forward.kind === 'emulator';
  const base = options.forward.url.replace(/\/+$/, '');

  const forward = async (request: Request, exchange: UpstreamExchange): Promise<Response> => {
    if (options.acceptKey !== undefined && !presents(request.headers, options.acceptKey)) return options.errorAnswer(401);
    const plan = exchange.marker === undefined ? undefined : planned.get(exchange.marker);
    const fault = plan && faults ? plan.fault : undefined;
    if (fault?.kind === 'status' && plan!.used < fault.times) {
      plan!.used += 1;
      exchange.fault = faultName(fault);
      return options.errorAnswer(fault.status, fault.retryAfterSeconds);
    }
    const url = new URL(request.url);
    const headers = new Headers([...request.headers].filter(([name]) => !HOP.has(name)));
    headers.set('accept-encoding', 'identity');
    if (options.forward.kind === 'emulator') {
      headers.delete('x-api-key');
      headers.set('authorization', `Bearer ${options.forward.key}`);
    }
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const answer = await fetch(`${base}${url.pathname}${url.search}`, { method: request.method, headers, ...(body ? { body } : {}), redirect: 'manual' });
    const out = new Headers([...answer.headers].filter(([name]) => !HOP.has(name)));
    if (fault?.kind === 'finish' && answer.body !== null) {
      exchange.fault = faultName(fault);
      return new Response(finishedOtherwise(await answer.text(), fault), { status: answer.status, headers: out });
    }
    if (answer.body === null || fault === undefined || fault.kind === 'status' || fault.kind === 'finish' || !String(answer.headers.get('content-type')).includes('event-stream')) {
      return new Response(answer.body, { status: answer.status, headers: out });
    }
    exchange.fault = faultName(fault);
    const events = eventsOf(answer.body);
    const stream = fault.kind === 'cut' ? cut(events, fault.afterEvents) : lockstep(events, fault.waitMs, exchange, waiter(exchange.marker!));
    return new Response(stream, { status: answer.status, headers: out });
  };

  /** Resolves once the client side has received `chars` characters for `marker`, or after `ms`; true if it did. */
  const waiter = (marker: string) => (chars: number, ms: number) =>
    new Promise<boolean>((resolve) => {
      const entry = seen.get(marker) ?? { chars: 0 };
      seen.set(marker, entry);
      if (entry.chars >= chars) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      entry.wake = () => {
        if (entry.chars < chars) return;
        clearTimeout(timer);
        resolve(true);
      };
    });

  const tap = tapped(forward, { secrets: options.secrets });
  const server = await serveFetch(tap.handle, { port: options.port, failure: (error) => options.errorAnswer(error instanceof TypeError ? 502 : 500) });
  return {
    kind: options.forward.kind,
    url: server.url,
    anyKey: options.acceptKey === undefined,
    faults,
    exchanges: async (marker) => {
      await tap.log.settled();
      return tap.log.byMarker(marker);
    },
    all: async () => {
      await tap.log.settled();
      return [...tap.log.all()];
    },
    plan: (marker, fault) => void planned.set(marker, { fault, used: 0 }),
    seen: (marker, chars) => {
      const entry = seen.get(marker) ?? { chars: 0 };
      entry.chars = Math.max(entry.chars, chars);
      seen.set(marker, entry);
      entry.wake?.();
    },
    close: () => server.close(),
  };
}

function presents(headers: Headers, key: string): boolean {
  return headers.get('authorization') === `Bearer ${key}` || headers.get('x-api-key') === key || headers.get('api-key') === key;
}

/** An SSE body as its events, as they arrive, read by the one SSE reader (core/sseFold.ts). */
async function* eventsOf(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const ready: SseEvent[] = [];
  const fold = new SseFold((e) => ready.push(e));
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    fold.feedBytes(chunk);
    yield* ready.splice(0);
  }
  fold.end();
  yield* ready.splice(0);
}

const encoder = new TextEncoder();

/** An answer (a body, or a stream's text) with every finish or stop reason it gives replaced: the `finish` fault. */
function finishedOtherwise(text: string, fault: { finishReason: string; stopReason: string }): string {
  return text
    .replace(/"finish_reason":\s*"[^"]*"/g, `"finish_reason":${JSON.stringify(fault.finishReason)}`)
    .replace(/"stop_reason":\s*"[^"]*"/g, `"stop_reason":${JSON.stringify(fault.stopReason)}`);
}

/** The first `afterEvents` events, then the connection breaks: no `[DONE]`, no end. */
function cut(events: AsyncGenerator<SseEvent>, afterEvents: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      const next = await events.next();
      if (next.done || sent >= afterEvents) {
        void events.return(undefined);
        controller.error(new Error('the upstream cut the stream on purpose'));
        return;
      }
      sent += 1;
      controller.enqueue(encoder.encode(sseFrame(next.value)));
    },
    cancel: () => void events.return(undefined),
  });
}

/**
 * Each event sent only once the client side has received the text of those before it, or `waitMs`
 * has passed: then the stall is noted (the gateway held the stream) and the rest goes at once.
 */
function lockstep(events: AsyncGenerator<SseEvent>, waitMs: number, exchange: UpstreamExchange, received: (chars: number, ms: number) => Promise<boolean>): ReadableStream<Uint8Array> {
  let index = 0;
  let sentChars = 0;
  return new ReadableStream({
    async pull(controller) {
      if (index > 0 && sentChars > 0 && exchange.stalledAfter === undefined) {
        const began = performance.now();
        if (!(await received(sentChars, waitMs))) exchange.stalledAfter = { event: index, waitedMs: Math.round(performance.now() - began) };
      }
      const next = await events.next();
      if (next.done) {
        controller.close();
        return;
      }
      index += 1;
      sentChars += next.value.kind === 'data' ? chunkTextLength(next.value.data) : 0;
      controller.enqueue(encoder.encode(sseFrame(next.value)));
    },
    cancel: () => void events.return(undefined),
  });
}

/** A recording's upstream side (fixtures' `upstream.json`): what it saw then, judged the same now. */
export function recordedUpstream(url: string, exchanges: readonly UpstreamExchange[], anyKey: boolean, faults = true): UpstreamSide {
  return {
    kind: 'recorded',
    url,
    anyKey,
    faults,
    exchanges: async (marker) => exchanges.filter((e) => e.marker === marker),
    all: async () => [...exchanges],
    plan: () => undefined,
    seen: () => undefined,
    close: async () => undefined,
  };
}
