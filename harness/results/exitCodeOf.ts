import type { CheckResult } from '#harness/core/outcome.ts';
import type { RunRecord } from './runRecord.ts';

export interface ExitPolicy {
  /** `--strict`: a failing should-check fails the run too. */
  strict: boolean;
  /**
   * Known failures (a previous run's records): a check that failed there, on the same base URL and
   * model, does not fail this run again. Only new failures do.
   */
  baseline?: readonly RunRecord[];
}

/** A failing check that decides the exit code. */
export interface GatingFailure {
  baseUrl: string;
  model: string;
  checkId: string;
  severity: CheckResult['severity'];
}

function key(baseUrl: string, model: string, checkId: string): string {
  return JSON.stringify([baseUrl, model, checkId]);
}

/**
 * THE exit policy, written once; exitCodeOf and every report that says "this run fails" use it.
 *
 * - verdict `fail`, severity `must`: fails the run.
 * - verdict `fail`, severity `should`: fails the run only with `strict`.
 * - verdict `fail`, severity `advisory`: never fails the run (the description leaves it open).
 * - verdict `error`: never fails the run. The harness could not judge, which says nothing about the
 *   endpoint; reports show every error so it is not missed.
 * - `pass`, `skip`, `unsupported`: never fail the run.
 * - a failure the baseline already had (same base URL, model, check id, verdict `fail`) is known and
 *   does not fail the run.
 * - an interrupted run is not judged here: the command that was interrupted decides its own exit.
 */
export function gatingFailures(records: readonly RunRecord[], policy: ExitPolicy): GatingFailure[] {
  const known = new Set<string>();
  for (const b of policy.baseline ?? []) {
    for (const r of b.results) if (r.verdict === 'fail') known.add(key(b.target.baseUrl, r.model, r.checkId));
  }
  const out: GatingFailure[] = [];
  for (const record of records) {
    for (const r of record.results) {
      if (r.verdict !== 'fail') continue;
      if (r.severity === 'advisory' || (r.severity === 'should' && !policy.strict)) continue;
      if (known.has(key(record.target.baseUrl, r.model, r.checkId))) continue;
      out.push({ baseUrl: record.target.baseUrl, model: r.model, checkId: r.checkId, severity: r.severity });
    }
  }
  return out;
}

/** 1 when any check fails under the policy of gatingFailures, else 0. */
export function exitCodeOf(records: readonly RunRecord[], policy: ExitPolicy): 0 | 1 {
  return gatingFailures(records, policy).length > 0 ? 1 : 0;
}
