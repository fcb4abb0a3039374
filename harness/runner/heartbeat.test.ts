import { afterEach, describe, expect, test, vi } from 'vitest';
import { DEFAULT_TIMING } from '#harness/transport/timing.ts';
import { heartbeat, waitingText, Waits } from './heartbeat.ts';
import type { Waiting } from '#harness/transport/index.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('heartbeat: a silent endpoint shows as waiting', () => {
  test('nothing while checks end; a line after a quiet stretch, saying how long and what bounds the wait; nothing after stop()', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const pulse = heartbeat((l) => lines.push(l), DEFAULT_TIMING, 15_000);
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(10_000);
      pulse.beat();
    }
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(35_000);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^svc-conformance: waiting on the endpoint: no check has ended for \d+ s \(a request waits up to 60 s for headers, 60 s between pieces of a body and 120 s for a whole body: --timeout-ms, --deadline-ms\)$/);
    const said = lines.length;
    pulse.stop();
    vi.advanceTimersByTime(60_000);
    expect(lines.length).toBe(said);
  });

  test('an endpoint answering "not now" is not called slow: the line names the retries waited out, the status and the wait', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const pulse = heartbeat((l) => lines.push(l), DEFAULT_TIMING, 15_000);
    pulse.retried({ status: 503, waitMs: 30_000 });
    pulse.retried({ status: 503, waitMs: 30_500 });
    vi.advanceTimersByTime(15_000);
    expect(lines).toEqual(['svc-conformance: waiting on the endpoint: no check has ended for 15 s (the endpoint answered "not now": 2 retries waited out since, the latest after HTTP 503, 31 s, as the description\'s retry guidance asks)']);
    // A check ending clears them: the next quiet stretch is judged on its own.
    pulse.beat();
    vi.advanceTimersByTime(15_000);
    expect(lines[1]).toMatch(/\(a request waits up to 60 s for headers/);
    pulse.stop();
  });

  test('what the run waits on, said: the request, for what, until when (a Retry-After first), not the fixed bounds', () => {
    vi.useFakeTimers();
    const calendar = () => new Date('2026-06-01T12:00:00Z');
    const now = performance.now();
    const waiting: Waiting[] = [
      { request: 'POST http://127.0.0.1:9/chat/completions', on: 'headers', since: now - 40_000, until: now + 30_000 },
      { request: 'POST http://127.0.0.1:9/chat/completions', on: 'retry', since: now - 5_000, until: now + 45_000, status: 429, retryAfter: true },
    ];
    const waits = new Waits();
    const off = waits.add({ waiting: () => waiting });
    const lines: string[] = [];
    const pulse = heartbeat((l) => lines.push(l), DEFAULT_TIMING, 15_000, { waits, calendar });
    vi.advanceTimersByTime(15_000);
    expect(lines).toEqual(['svc-conformance: waiting on the endpoint: no check has ended for 15 s: POST http://127.0.0.1:9/chat/completions waits out the Retry-After of its HTTP 429 until 12:00:30Z (30 s from now), then is asked again (the description\'s retry guidance); 1 more request waits too']);
    // Nothing waited out: the request waiting longest, and its bound.
    waiting.pop();
    vi.advanceTimersByTime(15_000);
    expect(lines[1]).toBe('svc-conformance: waiting on the endpoint: no check has ended for 30 s: POST http://127.0.0.1:9/chat/completions, sent 70 s ago, waits for its response headers until 12:00:00Z (0 s from now) at the latest (--timeout-ms)');
    off();
    vi.advanceTimersByTime(15_000);
    expect(lines[2]).toMatch(/\(a request waits up to 60 s for headers/);
    pulse.stop();
  });

  test('a wait outside the transport (the load phase\'s recovery between tries) is held, then let go', () => {
    const waits = new Waits();
    const now = performance.now();
    const end = waits.hold({ request: "the load phase's recovery: POST http://h/chat/completions", on: 'retry', since: now, until: now + 5000, status: 429, retryAfter: true });
    expect(waits.now().map((w) => w.request)).toEqual(["the load phase's recovery: POST http://h/chat/completions"]);
    end();
    expect(waits.now()).toEqual([]);
  });

  test('a body being read is said with its deadline; no wait, no text', () => {
    vi.useFakeTimers();
    const calendar = () => new Date('2026-06-01T12:00:00Z');
    const now = performance.now();
    expect(waitingText([{ request: 'GET http://h/models', on: 'body', since: now - 1000, until: now + 20_000 }], calendar)).toBe('GET http://h/models is reading its body, until 12:00:20Z (20 s from now) at the latest (its deadline: --deadline-ms)');
    expect(waitingText([{ request: 'GET http://h/models', on: 'retry', since: now, until: now + 2000, status: 503, retryAfter: false }], calendar)).toMatch(/waits out the backoff after its HTTP 503 until 12:00:02Z/);
    expect(waitingText([], calendar)).toBeUndefined();
  });
});
