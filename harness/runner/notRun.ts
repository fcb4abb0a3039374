import type { CheckResult } from '#harness/core/outcome.ts';
import { basisText } from '#harness/spec/basis.ts';
import type { Planned } from './plan.ts';

/** Planned (check, model) pairs without a result: reported as skipped, with why they did not run. */
export function notRun(plan: readonly Planned[], results: readonly CheckResult[], reason: string): CheckResult[] {
  const done = new Set(results.map((r) => `${r.checkId}|${r.model}`));
  return plan
    .filter((p) => !done.has(`${p.check.id}|${p.model}`))
    .map(({ check, model }) => ({ checkId: check.id, title: check.title, area: check.area, severity: check.severity, basis: basisText(check.basis), specRefs: check.specRefs, model, verdict: 'skip', reason, durationMs: 0 }));
}
