import type { Severity, Verdict } from '#harness/core/outcome.ts';
import { targetKey } from './exitCodeOf.ts';
import type { RunRecord } from './runRecord.ts';

export interface DiffEntry {
  target: string;
  model: string;
  checkId: string;
  severity: Severity;
  before?: Verdict;
  after?: Verdict;
}

export interface RunDiff {
  /** Failing now, not failing before (passed, flaky, skipped, unsupported or errored there). */
  newlyFailing: DiffEntry[];
  /** Flaky now (passed and failed over `--repeat N`), not flaky before. */
  newlyFlaky: DiffEntry[];
  /** Passing now, failing or flaky before. */
  newlyPassing: DiffEntry[];
  added: DiffEntry[];
  removed: DiffEntry[];
}

function index(records: readonly RunRecord[]): Map<string, DiffEntry & { verdict: Verdict }> {
  const out = new Map<string, DiffEntry & { verdict: Verdict }>();
  for (const rec of records) {
    for (const r of rec.results) {
      out.set(JSON.stringify([targetKey(rec), r.model, r.checkId]), { target: targetKey(rec), model: r.model, checkId: r.checkId, severity: r.severity, verdict: r.verdict });
    }
  }
  return out;
}

/**
 * What changed between two runs, check by check (same target, model and check id). A check that
 * went from pass to flaky is newly flaky, not newly failing: it still passes some of the time; one
 * that went from flaky to fail is newly failing: it now fails every time.
 */
export function diffRecords(base: readonly RunRecord[], next: readonly RunRecord[]): RunDiff {
  const before = index(base);
  const after = index(next);
  const diff: RunDiff = { newlyFailing: [], newlyFlaky: [], newlyPassing: [], added: [], removed: [] };
  const strip = ({ verdict: _v, ...e }: DiffEntry & { verdict: Verdict }): DiffEntry => e;
  for (const [k, now] of after) {
    const was = before.get(k);
    if (!was) diff.added.push({ ...strip(now), after: now.verdict });
    else if (now.verdict === 'fail' && was.verdict !== 'fail') diff.newlyFailing.push({ ...strip(now), before: was.verdict, after: 'fail' });
    else if (now.verdict === 'flaky' && was.verdict !== 'flaky') diff.newlyFlaky.push({ ...strip(now), before: was.verdict, after: 'flaky' });
    else if (now.verdict === 'pass' && (was.verdict === 'fail' || was.verdict === 'flaky')) diff.newlyPassing.push({ ...strip(now), before: was.verdict, after: 'pass' });
  }
  for (const [k, was] of before) if (!after.has(k)) diff.removed.push({ ...strip(was), before: was.verdict });
  return diff;
}
