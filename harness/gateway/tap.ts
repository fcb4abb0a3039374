import { jsonOf } from '#harness/core/parsesAsJson.ts';
import { redactText } from '#harness/core/redact.ts';
import { markerOf } from '#harness/core/marker.ts';

/** One request a gateway sent upstream and what it was answered, as the upstream saw both. */
export interface UpstreamExchange {
  /** The marker of the client request that caused it (marker.ts), when its body carries one. */
  marker: string | undefined;
  request: { method: string; path: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: Record<string, string>; body: string };
}

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
}

type Handle = (request: Request) => Promise<Response>;

/**
 * Wraps a fetch handler (the embedded emulator as a gateway's upstream, or a reverse proxy in front
 * of a real one) so that every exchange through it is recorded whole: the request as it arrived and
 * the answer as it left, a stream included (read beside the gateway, never holding it back).
 */
export function tapped(handle: Handle, options: TapOptions): { handle: Handle; log: UpstreamLog } {
  const exchanges: UpstreamExchange[] = [];
  const pending = new Set<Promise<void>>();
  const clean = (text: string) => redactText(text, options.secrets);
  const headersOf = (h: Headers) => Object.fromEntries([...h].map(([name, value]) => [name, clean(value)]));

  const wrapped: Handle = async (request) => {
    const body = await request.clone().text();
    const response = await handle(request);
    const url = new URL(request.url);
    const exchange: UpstreamExchange = {
      marker: markerOf(jsonOf(body)),
      request: { method: request.method, path: `${url.pathname}${url.search}`, headers: headersOf(request.headers), body: clean(body) },
      response: { status: response.status, headers: headersOf(response.headers), body: '' },
    };
    exchanges.push(exchange);
    if (response.body === null) return response;
    const [toClient, toLog] = response.body.tee();
    const reading = new Response(toLog).text().then(
      (text) => void (exchange.response.body = clean(text)),
      () => undefined,
    );
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
