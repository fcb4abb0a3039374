import type { Check } from '#harness/checks/index.ts';
import { propertyRounds } from '#harness/checks/property/runProperty.ts';
import type { Planned } from './plan.ts';

/** Round trips a check waits on one after another (its declared chain; a property check's, from its runs). */
export const chainOf = (check: Pick<Check, 'chain'>, runs: number): number => (check.chain === 'runs' ? propertyRounds(runs) : (check.chain ?? 1));

/**
 * The order checks start in: longest chain first (as a scheduler does with the critical path), so
 * a run is not as long as a long chain started last; among equals, the plan's order. At 800 ms a
 * round trip, a property check's ten runs are eight seconds that must begin at once.
 */
export function longestChainFirst(plan: readonly Planned[], runs: number): Planned[] {
  return plan
    .map((p, i) => ({ p, i, chain: chainOf(p.check, runs) }))
    .sort((a, b) => b.chain - a.chain || a.i - b.i)
    .map(({ p }) => p);
}
