import { jsonOf } from '#harness/core/parsesAsJson.ts';
import { REDACTED, redactText } from '#harness/core/redact.ts';
import { markerOf } from '#harness/core/marker.ts';
import type { UpstreamExchange } from '#harness/core/upstream.ts';

export type { UpstreamExchange } from '#harness/core/upstream.ts';

/** The upstream exchanges seen so far, by the marker that pairs them with the client's. */
export interface UpstreamLog {
  all(): readonly UpstreamExchange[];
  byMarker(marker: string): UpstreamExchange[];
  /** Resolves once every answer begun has been read to its end (a stream, to its last event). */
  settled(): Promise<void>;
}

export interface TapOptions {
  /** Written nowhere: every header and body recorded has them replaced (core/redact.ts). */
  secrets: readonly string[];
  /** Milliseconds since some start (default: since the tap was made): each exchange's `at`. */
  now?: () => number;
}

/** A handler behind the tap; it may note on the exchange what it did on purpose (a fault, a stall). */
type Inner = (request: Request, exchange: UpstreamExchange) => Promise<Response>;
type Handle = (request: Request) => Promise<Response>;

/** Credentials the gateway sends upstream: in a tap they are its own key, which the harness never knows, so never kept. */
const CREDENTIALS = new Set(['authorization', 'x-api-key', 'api-key', 'proxy-authorization', 'cookie']);

/**
 * Wraps a fetch handler (the embedded emulator as a gateway's upstream, or a reverse proxy in front
 * of a real one) so that every exchange through it is recorded whole: the request as it arrived and
 * the answer as it left, a stream included (read beside the gateway, never holding it back).
 */
export function tapped(handle: Inner, options: TapOptions): { handle: Handle; log: UpstreamLog } {
  const exchanges: UpstreamExchange[] = [];
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  const now = options.now ?? (() => performance.now() - started);
  const clean = (text: string) => redactText(text, options.secrets);
  const headersOf = (h: Headers) => Object.fromEntries([...h].map(([name, value]) => [name, CREDENTIALS.has(name) ? credential(value) : clean(value)]));

  const wrapped: Handle = async (request) => {
    const body = await request.clone().text();
    const url = new URL(request.url);
    const exchange: UpstreamExchange = {
      marker: markerOf(jsonOf(body)),
      at: Math.round(now()),
      request: { method: request.method, path: `${url.pathname}${url.search}`, headers: headersOf(request.headers), body: clean(body) },
      response: { status: 0, headers: {}, body: '' },
    };
    exchanges.push(exchange);
    const response = await handle(request, exchange);
    exchange.response.status = response.status;
    exchange.response.headers = headersOf(response.headers);
    if (response.body === null) return response;
    const [toClient, toLog] = response.body.tee();
    const reading = readAll(toLog).then((text) => void (exchange.response.body = clean(text)));
    pending.add(reading);
    void reading.finally(() => pending.delete(reading));
    return new Response(toClient, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  return {
    handle: wrapped,
    log: {
      all: () => exchanges,
      byMarker: (marker) => exchanges.filter((e) => e.marker === marker),
      settled: async () => void (await Promise.all([...pending])),
    },
  };
}

/** A credential header as kept: its scheme, never its value. */
function credential(value: string): string {
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme === undefined ? REDACTED : `${scheme} ${REDACTED}`;
}

/** What arrived of a body, also when it broke off (a cut stream keeps what came before the cut). */
async function readAll(body: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Kept as far as it came.
  }
  return text + decoder.decode();
}
