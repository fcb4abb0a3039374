import type { CheckResult } from '#harness/core/outcome.ts';

/**
 * One defect, one failure: a failing result whose every failure is owned by another check
 * (`Failure.ownedBy`: a parameter's acceptance) is inconclusive where each owner fails too on the
 * same model, naming it; the defect is reported there. Where an owner passed (its own probes met no
 * such refusal), or is not in this run (another shard), the failure stands: it is then the only
 * report of the defect.
 */
export function attributeOwned(results: readonly CheckResult[]): CheckResult[] {
  const failing = new Set(results.filter((r) => r.verdict === 'fail').map((r) => `${r.checkId}|${r.model}`));
  return results.map((r) => {
    const failures = r.failures ?? [];
    if (r.verdict !== 'fail' || failures.length === 0 || failures.some((f) => f.ownedBy === undefined)) return r;
    const owners = [...new Set(failures.map((f) => f.ownedBy!))];
    if (!owners.every((o) => failing.has(`${o}|${r.model}`))) return r;
    const { failures: _owned, ...rest } = r;
    return { ...rest, verdict: 'skip', skipKind: 'inconclusive', reason: `inconclusive: ${failures[0]!.message}; ${owners.join(' and ')} fails for that refusal: one defect, reported there` };
  });
}
