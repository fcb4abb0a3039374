import type { CheckResult } from '#harness/core/outcome.ts';
import type { RunRecord } from './runRecord.ts';

export interface ExitPolicy {
  /** `--strict`: a failing should-check fails the run too. */
  strict: boolean;
  /** `--allow-flaky`: a flaky check (passed and failed over `--repeat N`) fails the run at no severity. */
  allowFlaky?: boolean;
  /**
   * A previous run's records (`run --baseline`): only regressions fail the run, that is checks that
   * passed there, on the same target and model, and fail now. A known failure, or a check the
   * baseline did not run, does not.
   */
  baseline?: readonly RunRecord[];
}

/** A failing check that decides the exit code. */
export interface GatingFailure {
  baseUrl: string;
  model: string;
  checkId: string;
  severity: CheckResult['severity'];
  verdict: 'fail' | 'error' | 'flaky';
}

/** The target a record is about: the embedded emulator listens on a new port each run. */
export function targetKey(record: RunRecord): string {
  return record.target.kind === 'emulator' ? 'emulator' : record.target.baseUrl;
}

function key(target: string, model: string, checkId: string): string {
  return JSON.stringify([target, model, checkId]);
}

/**
 * THE exit policy, written once; exitCodeOf and every report that says "this run fails" use it.
 *
 * - verdict `fail`, severity `must`: fails the run.
 * - verdict `fail`, severity `should`: fails the run only with `strict`.
 * - verdict `fail`, severity `advisory`: never fails the run (the description leaves it open).
 * - verdict `error` counts as `fail` at its severity: the check could not be shown to hold (the
 *   endpoint refused the connection, reset it, stalled, answered bytes that cannot be read). A CI
 *   gate must not pass a dead endpoint; reports tell errors from failures, so a harness bug that
 *   errors is still told apart.
 * - verdict `flaky` (a repeated run saw the check pass and fail) counts as `fail` at its severity:
 *   a contract that holds only some of the time does not hold. With `allowFlaky` it never fails the
 *   run (it is still reported flaky): the endpoint is known to be nondeterministic and only what
 *   fails every time should block.
 * - `pass`, `skip`, `unsupported`: never fail the run.
 * - with a baseline, only a regression fails the run: a check that passed in the baseline (same
 *   target, model and check id) and fails now.
 * - an interrupted run is not judged here: the command that was interrupted decides its own exit.
 */
export function gatingFailures(records: readonly RunRecord[], policy: ExitPolicy): GatingFailure[] {
  const passedBefore = new Set<string>();
  for (const b of policy.baseline ?? []) {
    for (const r of b.results) if (r.verdict === 'pass') passedBefore.add(key(targetKey(b), r.model, r.checkId));
  }
  const out: GatingFailure[] = [];
  for (const record of records) {
    for (const r of record.results) {
      if (r.verdict !== 'fail' && r.verdict !== 'error' && r.verdict !== 'flaky') continue;
      if (r.verdict === 'flaky' && policy.allowFlaky === true) continue;
      if (r.severity === 'advisory' || (r.severity === 'should' && !policy.strict)) continue;
      if (policy.baseline && !passedBefore.has(key(targetKey(record), r.model, r.checkId))) continue;
      out.push({ baseUrl: record.target.baseUrl, model: r.model, checkId: r.checkId, severity: r.severity, verdict: r.verdict });
    }
  }
  return out;
}

/** 1 when any check fails under the policy of gatingFailures, else 0. */
export function exitCodeOf(records: readonly RunRecord[], policy: ExitPolicy): 0 | 1 {
  return gatingFailures(records, policy).length > 0 ? 1 : 0;
}
