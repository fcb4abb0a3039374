import type { RepeatStats } from '#harness/core/outcome.ts';

/**
 * The unbiased estimators of a check's reliability over n decisive runs with c passes (Chen et al.
 * 2021 for pass@k; tau-bench's pass^k). Written as products of ratios rather than binomials, so a
 * large n never overflows: C(a,k)/C(n,k) = prod_{i<k} (a-i)/(n-i), and 0 once a < k.
 */
function ratioOfChoose(a: number, n: number, k: number): number {
  let r = 1;
  for (let i = 0; i < k; i++) {
    if (a - i <= 0) return 0;
    r *= (a - i) / (n - i);
  }
  return r;
}

function checkCounts(n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 1 || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`pass@k needs integers 0 <= c <= n and 1 <= k <= n (got n ${n}, c ${c}, k ${k})`);
  }
}

/** pass@k = 1 - C(n-c,k)/C(n,k): the chance that at least one of k runs drawn from the n passes. */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  return 1 - ratioOfChoose(n - c, n, k);
}

/** pass^k = C(c,k)/C(n,k): the chance that all k runs drawn from the n pass. */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  return ratioOfChoose(c, n, k);
}

/** Four decimals: enough to tell 2 of 3 (0.6667) from 3 of 4 (0.75), short enough to read. */
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * What a report says of a repeated check: its runs, passes and fails, and pass@k and pass^k for
 * k = 1..n over the n = passes + fails decisive runs (a skipped or errored run judged nothing, so it
 * is neither; k beyond n has no estimate and is left out).
 */
export function repeatStatsOf(runs: number, passes: number, fails: number): RepeatStats {
  const n = passes + fails;
  const passAt: Record<string, number> = {};
  const passHat: Record<string, number> = {};
  for (let k = 1; k <= n; k++) {
    passAt[String(k)] = round4(passAtK(n, passes, k));
    passHat[String(k)] = round4(passHatK(n, passes, k));
  }
  return { runs, passes, fails, passAtK: passAt, passHatK: passHat };
}
