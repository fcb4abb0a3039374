import type { CheckResult, SkipKind } from '#harness/core/outcome.ts';
import { resultHead } from './execute.ts';
import type { Planned } from './plan.ts';

/** Planned (check, model) pairs without a result: reported as skipped, with why they did not run. */
export function notRun(plan: readonly Planned[], results: readonly CheckResult[], reason: string, skipKind: SkipKind): CheckResult[] {
  const done = new Set(results.map((r) => `${r.checkId}|${r.model}`));
  return plan
    .filter((p) => !done.has(`${p.check.id}|${p.model}`))
    .map(({ check, model }) => ({ ...resultHead(check, model), verdict: 'skip', skipKind, reason, durationMs: 0 }));
}
