import { afterEach, describe, expect, test, vi } from 'vitest';
import { DEFAULT_TIMING } from '#harness/transport/timing.ts';
import { heartbeat } from './heartbeat.ts';

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
});
