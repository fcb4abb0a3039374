import type { CheckResult, Verdict } from '#harness/core/outcome.ts';
import type { Summary } from './runRecord.ts';

/** Every verdict, in the order reports list them: what needs attention first. */
export const VERDICTS: readonly Verdict[] = ['fail', 'flaky', 'error', 'unsupported', 'skip', 'pass'];

/**
 * Counts per verdict, and failures per severity. An `error` verdict (the harness could not judge)
 * is counted under `error` only: it is never a failure of the endpoint. A `flaky` one (passed and
 * failed over repeated runs) is counted under `flaky` only: whether it fails the run is the exit
 * policy's call (--allow-flaky), not a count's.
 */
export function summarize(results: readonly CheckResult[]): Summary {
  const summary: Summary = {
    total: results.length,
    pass: 0,
    fail: 0,
    flaky: 0,
    skip: 0,
    unsupported: 0,
    error: 0,
    mustFailures: 0,
    shouldFailures: 0,
    advisoryFailures: 0,
  };
  for (const r of results) {
    summary[r.verdict] += 1;
    if (r.verdict !== 'fail') continue;
    if (r.severity === 'must') summary.mustFailures += 1;
    else if (r.severity === 'should') summary.shouldFailures += 1;
    else summary.advisoryFailures += 1;
  }
  return summary;
}
