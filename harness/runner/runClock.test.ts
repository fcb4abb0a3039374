import { expect, test } from 'vitest';
import { RunClock } from './runClock.ts';

test('targets run at once are counted once: the checks took the union of their spans, and requests never more than that', () => {
  const clock = new RunClock();
  clock.add({ firstCheckAt: 1000, lastCheckAt: 5000, requestMs: 4000 });
  clock.add({ firstCheckAt: 1200, lastCheckAt: 6000, requestMs: 4800 });
  clock.add({ firstCheckAt: 8000, lastCheckAt: 9000, requestMs: 500 });
  const t = clock.timings([], 100);
  expect(t.startupMs).toBe(1000);
  // 1000..6000 and 8000..9000: 6 s of checks, not 4 + 4.8 + 1.
  expect(t.requestsMs + t.judgingMs).toBe(6000);
  expect(t.requestsMs).toBe(6000);
});
