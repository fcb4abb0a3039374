import { describe, expect, test } from 'vitest';
import type { RunTraffic } from './runRecord.ts';
import { sumTraffic } from './traffic.ts';

const run = (requests: number, retries: number, reached: number, final = reached): RunTraffic => ({ requests, retries, concurrency: { initial: 4, max: 16, adaptive: true, reached, final, decreases: 0 } });

describe('sumTraffic', () => {
  test('requests and retries add up; concurrency is the run that reached the most, whole', () => {
    expect(sumTraffic([run(100, 1, 8), run(120, 2, 16, 12), run(90, 0, 10)])).toEqual({ requests: 310, retries: 3, concurrency: run(0, 0, 16, 12).concurrency });
  });

  test('of runs that reached as high, the earliest; none: undefined', () => {
    const first = run(10, 0, 8, 8);
    const second = run(10, 0, 8, 4);
    expect(sumTraffic([first, second])!.concurrency).toBe(first.concurrency);
    expect(sumTraffic([])).toBeUndefined();
  });
});
