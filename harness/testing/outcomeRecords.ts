/**
 * Test helper (test code only): run records for every way a run can end, built from the sample
 * record, for the tests that show every output of a run agreeing on its outcome.
 */
import { headOf, type CheckResult, type Severity, type SkipKind } from '#harness/core/outcome.ts';
import type { RunRecord } from '#harness/results/runRecord.ts';
import { summarize } from '#harness/results/summarize.ts';
import { sampleFlakyResult, sampleRecord } from './sampleRecord.ts';

/** The record with its results replaced, its summary recounted. */
export function withResults(record: RunRecord, results: CheckResult[]): RunRecord {
  return { ...record, results, summary: summarize(results) };
}

/** The record with every failing result (fail, error, flaky) passing, and every check run. */
export function passingOf(r: RunRecord): RunRecord {
  const results = r.results.map((x) => {
    if (x.verdict !== 'fail' && x.verdict !== 'error' && x.verdict !== 'flaky' && !(x.verdict === 'skip' && x.skipKind === 'interrupted')) return x;
    const { reason: _r, repeat: _n, ...rest } = headOf(x);
    return { ...rest, verdict: 'pass' as const, judged: rest.judged ?? { exchanges: 1 } };
  });
  const { interruptedBy: _by, ...rest } = r;
  return { ...withResults(rest, results), interrupted: false };
}

/** The sample record with every failing result passing: nothing fails. */
export function cleanRecord(): RunRecord {
  return passingOf(sampleRecord());
}

/** The clean record with the first passing check of `severity` failing. */
export function failingAt(severity: Severity, base = cleanRecord()): RunRecord {
  const i = base.results.findIndex((r) => r.severity === severity && r.verdict === 'pass');
  if (i < 0) throw new Error(`no passing ${severity} check in the sample`);
  const results = base.results.map((r, j): CheckResult => (j === i ? { ...headOf(r), verdict: 'fail' as const, failures: [{ message: `${severity} rule broken` }] } : r));
  return withResults(base, results);
}

/** The clean record with the sample's flaky check added. */
export function flakyRecord(allowFlaky: boolean): RunRecord {
  const r = cleanRecord();
  return { ...withResults(r, [...r.results, sampleFlakyResult()]), options: { ...r.options, repeat: 3, ...(allowFlaky ? { allowFlaky: true } : {}) } };
}

/** Every result skipped, of `kind`. */
export function skippedRecord(kind: SkipKind): RunRecord {
  const r = cleanRecord();
  return withResults(
    r,
    r.results.map((x) => ({ ...headOf(x), verdict: 'skip', skipKind: kind, reason: `${kind}: not judged` })),
  );
}

/** Stopped after the first half of its checks, by `signal`. */
export function interruptedRecord(signal: 'SIGINT' | 'SIGTERM'): RunRecord {
  const r = cleanRecord();
  const half = Math.ceil(r.results.length / 2);
  const results = r.results.map((x, i) => (i < half ? x : { ...headOf(x), verdict: 'skip' as const, skipKind: 'interrupted' as const, reason: `interrupted: not run (${signal})` }));
  return { ...withResults(r, results), interrupted: true, interruptedBy: signal };
}
