/** z for a two-sided 95% interval. */
const Z95 = 1.959964;

/**
 * The Wilson score interval of a proportion: `passes` of `runs`, at 95%. Unlike the plain
 * passes/runs ± z·se, it stays within [0, 1] and is honest for few runs and rates near 0 or 1, which
 * is what a CI job repeating a flaky check a handful of times has (Wilson 1927; Agresti and Coull
 * 1998 recommend it for small n).
 */
export function wilsonInterval(passes: number, runs: number, z = Z95): { low: number; high: number } {
  if (runs <= 0) return { low: 0, high: 1 };
  const p = passes / runs;
  const z2 = z * z;
  const centre = (p + z2 / (2 * runs)) / (1 + z2 / runs);
  const half = (z * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs))) / (1 + z2 / runs);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
