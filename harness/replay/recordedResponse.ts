import { setTimeout as delay } from 'node:timers/promises';
import { HttpResponse } from 'msw';
import type { RecordedEvent } from '#harness/core/exchange.ts';
import { SseFold, sseFrame } from '#harness/core/sseFold.ts';
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
  if (r.events) return new HttpResponse(eventStream(r.events, r.text, fast, pacer), { status: r.status, headers });
  const text = r.body !== undefined ? JSON.stringify(r.body) : (r.text ?? '');
  return new HttpResponse(text, { status: r.status, headers });
}

/**
 * A recorded stream, paced by its events' times. With the stream's own text (recordings made since
 * it is kept), its exact bytes are sent, cut after each blank line and each piece sent at its event's
 * time; an older recording's events are framed anew (sseFrame), and so are events edited by hand
 * (they no longer say what the text says: the edit is what the replay must serve).
 */
function eventStream(events: readonly RecordedEvent[], raw: string | undefined, fast: boolean, pacer: Pacer): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pieces = raw !== undefined && sameEvents(raw, events) ? piecesOf(raw, events) : events.map((e) => ({ at: e.at, bytes: sseFrame(e) }));
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const started = pacer.now();
      for (const p of pieces) {
        const wait = fast ? 0 : started + p.at - pacer.now();
        if (wait > 0) await pacer.sleep(wait);
        // The client left: enqueueing into a cancelled stream would throw.
        if (cancelled) return;
        controller.enqueue(encoder.encode(p.bytes));
      }
      controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
}

/** Whether the text holds exactly the recorded events (data and name, comments included), in order. */
function sameEvents(raw: string, events: readonly RecordedEvent[]): boolean {
  const parsed: RecordedEvent[] = [];
  const fold = new SseFold((e) => parsed.push({ at: 0, data: e.data, ...(e.event !== undefined ? { event: e.event } : {}) }));
  fold.feed(raw);
  fold.end();
  return parsed.length === events.length && parsed.every((p, i) => p.data === events[i]!.data && p.event === events[i]!.event);
}

/** The raw stream cut after each blank line (`\n\n`, `\r\n\r\n`), the k-th piece timed as the k-th event; the pieces add up to the text exactly. */
function piecesOf(raw: string, events: readonly RecordedEvent[]): { at: number; bytes: string }[] {
  const cuts = raw.split(/(?<=\r?\n\r?\n)/);
  const last = events.at(-1)?.at ?? 0;
  return cuts.map((bytes, k) => ({ at: events[k]?.at ?? last, bytes }));
}

