import type { Verdict } from '#harness/core/outcome.ts';

const FAILING: ReadonlySet<Verdict> = new Set(['fail', 'error', 'flaky']);

/** Whether a verdict is a failure of some kind (before severity and policy). */
export function isFailing(verdict: Verdict): boolean {
  return FAILING.has(verdict);
}
