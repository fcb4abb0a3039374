import { setTimeout as delay } from 'node:timers/promises';
import { HttpResponse } from 'msw';
import type { RecordedEvent } from '#harness/core/exchange.ts';
import type { FixtureExchange } from './fixtureFormat.ts';

/** The clock a replayed stream is paced by: the process's, or a test's own (no test times the wall). */
export interface Pacer {
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

const WALL_CLOCK: Pacer = { now: () => performance.now(), sleep: (ms) => delay(ms) };

/**
 * The recorded answer of an exchange as a fetch Response: a recorded connection failure is
 * `Response.error()`, an SSE body is streamed with its recorded spacing (none when `fast`).
 */
export function recordedResponse(fx: FixtureExchange, fast: boolean, pacer: Pacer = WALL_CLOCK): Response {
  const r = fx.response;
  if (!r) return HttpResponse.error();
  // The stored body is already decoded, so it must not claim an encoding.
  const headers = new Headers(Object.entries(r.headers).filter(([name]) => name.toLowerCase() !== 'content-encoding'));
  const nullBody = r.status === 204 || r.status === 304 || r.status < 200;
  if (nullBody) return new HttpResponse(null, { status: r.status, headers });
  if (r.events) return new HttpResponse(eventStream(r.events, fast, pacer), { status: r.status, headers });
  const text = r.body !== undefined ? JSON.stringify(r.body) : (r.text ?? '');
  return new HttpResponse(text, { status: r.status, headers });
}

function eventStream(events: readonly RecordedEvent[], fast: boolean, pacer: Pacer): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const started = pacer.now();
      for (const e of events) {
        const wait = fast ? 0 : started + e.at - pacer.now();
        if (wait > 0) await pacer.sleep(wait);
        // The client left: enqueueing into a cancelled stream would throw.
        if (cancelled) return;
        controller.enqueue(encoder.encode(sseFrame(e)));
      }
      controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
}

/** An SSE event as bytes on the wire; a recorded comment (`:...`) is written back as one. */
function sseFrame(e: RecordedEvent): string {
  if (e.data.startsWith(':')) return `${e.data}\n\n`;
  return `${e.event !== undefined ? `event: ${e.event}\n` : ''}${e.data.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`;
}
