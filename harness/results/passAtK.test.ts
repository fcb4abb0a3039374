import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { passAtK, passHatK, repeatStatsOf } from './passAtK.ts';

/** Every k-subset of n runs, c of them passing: the share with at least one pass and with all passes, counted. */
function bySubsets(n: number, c: number, k: number): { any: number; all: number } {
  let total = 0;
  let any = 0;
  let all = 0;
  const walk = (start: number, taken: number, passes: number) => {
    if (taken === k) {
      total += 1;
      if (passes > 0) any += 1;
      if (passes === k) all += 1;
      return;
    }
    for (let i = start; i < n; i++) walk(i + 1, taken + 1, passes + (i < c ? 1 : 0));
  };
  walk(0, 0, 0);
  return { any: any / total, all: all / total };
}

const counts = fc.integer({ min: 1, max: 10 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }), fc.integer({ min: 1, max: n })));

describe('pass@k and pass^k', () => {
  test('equal the share of k-subsets of the runs with at least one pass, and with only passes (counted by enumeration)', () => {
    fc.assert(
      fc.property(counts, ([n, c, k]) => {
        const { any, all } = bySubsets(n, c, k);
        expect(passAtK(n, c, k)).toBeCloseTo(any, 12);
        expect(passHatK(n, c, k)).toBeCloseTo(all, 12);
      }),
    );
  });

  test('at k = 1 both are c/n; pass@k grows with k, pass^k shrinks, and pass@k >= pass^k', () => {
    fc.assert(
      fc.property(counts, ([n, c, k]) => {
        expect(passAtK(n, c, 1)).toBeCloseTo(c / n, 12);
        expect(passHatK(n, c, 1)).toBeCloseTo(c / n, 12);
        expect(passAtK(n, c, k)).toBeGreaterThanOrEqual(passHatK(n, c, k) - 1e-12);
        if (k < n) {
          expect(passAtK(n, c, k + 1)).toBeGreaterThanOrEqual(passAtK(n, c, k) - 1e-12);
          expect(passHatK(n, c, k + 1)).toBeLessThanOrEqual(passHatK(n, c, k) + 1e-12);
        }
      }),
    );
  });

  test('large n does not overflow', () => {
    expect(passAtK(1000, 500, 500)).toBeCloseTo(1, 12);
    expect(passHatK(1000, 999, 2)).toBeCloseTo(0.998, 12);
  });

  test('counts outside 0 <= c <= n, 1 <= k <= n are refused', () => {
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passHatK(3, 2, 4)).toThrow(/1 <= k <= n/);
    expect(() => passAtK(0, 0, 1)).toThrow(RangeError);
  });
});

describe('repeatStatsOf', () => {
  test('2 passes of 3 runs: pass@1 = pass^1 = 0.6667, pass@2 = pass@3 = 1, pass^2 = 0.3333, pass^3 = 0', () => {
    expect(repeatStatsOf(3, 2, 1)).toEqual({
      runs: 3,
      passes: 2,
      fails: 1,
      passAtK: { '1': 0.6667, '2': 1, '3': 1 },
      passHatK: { '1': 0.6667, '2': 0.3333, '3': 0 },
    });
  });

  test('k runs up to the decisive runs only: a skipped run is neither a pass nor a fail', () => {
    expect(repeatStatsOf(3, 2, 0)).toEqual({ runs: 3, passes: 2, fails: 0, passAtK: { '1': 1, '2': 1 }, passHatK: { '1': 1, '2': 1 } });
    expect(repeatStatsOf(3, 0, 0)).toEqual({ runs: 3, passes: 0, fails: 0, passAtK: {}, passHatK: {} });
  });
});
