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
});
