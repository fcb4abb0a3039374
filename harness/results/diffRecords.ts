import type { Severity, Verdict } from '#harness/core/outcome.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import { baselineCellOf, cellWords, targetKey, withBaseline } from './baseline.ts';
import { gate, type GateDecision } from './gate.ts';
import type { RunRecord } from './runRecord.ts';

export interface DiffEntry {
  target: string;
  model: string;
  checkId: string;
  severity: Severity;
  before?: Verdict;
  after?: Verdict;
  /** Why it is not judged now: a skip's or an unsupported check's reason. */
  why?: string;
}

export interface RunDiff {
  /** Failing (fail or error) now, not before (passed, flaky, skipped or unsupported there). */
  newlyFailing: DiffEntry[];
  /** Flaky now (passed and failed over `--repeat N`), not flaky before. */
  newlyFlaky: DiffEntry[];
  /** Passing now, failing or flaky before. */
  newlyPassing: DiffEntry[];
  /**
   * Judged before (pass, fail or flaky), not now (skipped or unsupported: blocked, out of scope, not
   * recorded...): what no longer shows anything, which a pass-only comparison would never see.
   */
  noLongerJudged: DiffEntry[];
  /** Failing in both, for another cause now: the failures' keys (failureKey.ts) differ. */
  failingOtherwise: (DiffEntry & { keysBefore: string[]; keysAfter: string[] })[];
  added: DiffEntry[];
  removed: DiffEntry[];
  /**
   * The gate (gate.ts) over the new run's cells that the base run has too, with the base run as
   * their baseline: exactly what `run --baseline BASE` would have decided for the new run.
   */
  decision: GateDecision;
}

const FAILING: ReadonlySet<Verdict> = new Set(['fail', 'error']);
const JUDGED: ReadonlySet<Verdict> = new Set(['pass', 'fail', 'flaky']);
const UNJUDGED: ReadonlySet<Verdict> = new Set(['skip', 'unsupported']);

type Indexed = DiffEntry & { verdict: Verdict; keys: string[]; reason?: string };

function index(records: readonly RunRecord[]): Map<string, Indexed> {
  const out = new Map<string, Indexed>();
  for (const rec of records) {
    const target = targetKey(rec.target);
    for (const r of rec.results) {
      // Reports written before failures had keys compare by no key: never "for another cause".
      const keys = [...new Set((r.failures ?? []).flatMap((f) => (f.key === undefined ? [] : [f.key])))].sort();
      out.set(JSON.stringify([target, r.model, r.checkId]), { target, model: r.model, checkId: r.checkId, severity: r.severity, verdict: r.verdict, keys, ...(r.reason !== undefined ? { reason: r.reason } : {}) });
    }
  }
  return out;
}

/**
 * What changed between two runs, check by check (same target, model and check id). A check that
 * went from pass to flaky is newly flaky, not newly failing: it still passes some of the time; one
 * that went from flaky to fail is newly failing: it now fails every time. An error counts as a
 * failure, as the gate counts it. Two runs that share no cell cannot be compared: a UsageError.
 */
export function diffRecords(base: readonly RunRecord[], next: readonly RunRecord[], source = 'BASE'): RunDiff {
  const common = next.filter((r) => baselineCellOf(r, base));
  if (common.length === 0) {
    throw new UsageError(`diff: the two runs share no cell (target and model): BASE holds ${[...new Set(base.map(cellWords))].join(', ') || 'none'}; NEW holds ${[...new Set(next.map(cellWords))].join(', ') || 'none'}. Compare two runs of the same target.`);
  }
  const before = index(base);
  const after = index(next);
  const diff: RunDiff = { newlyFailing: [], newlyFlaky: [], newlyPassing: [], noLongerJudged: [], failingOtherwise: [], added: [], removed: [], decision: gate(withBaseline(common, base, source)) };
  const strip = ({ verdict: _v, keys: _k, reason: _r, ...e }: Indexed): DiffEntry => e;
  for (const [k, now] of after) {
    const was = before.get(k);
    if (!was) diff.added.push({ ...strip(now), after: now.verdict });
    else if (FAILING.has(now.verdict) && !FAILING.has(was.verdict)) diff.newlyFailing.push({ ...strip(now), before: was.verdict, after: now.verdict });
    else if (now.verdict === 'flaky' && was.verdict !== 'flaky') diff.newlyFlaky.push({ ...strip(now), before: was.verdict, after: 'flaky' });
    else if (now.verdict === 'pass' && (FAILING.has(was.verdict) || was.verdict === 'flaky')) diff.newlyPassing.push({ ...strip(now), before: was.verdict, after: 'pass' });
    else if (JUDGED.has(was.verdict) && UNJUDGED.has(now.verdict)) diff.noLongerJudged.push({ ...strip(now), before: was.verdict, after: now.verdict, ...(now.reason !== undefined ? { why: now.reason } : {}) });
    else if (now.verdict === 'fail' && was.verdict === 'fail' && now.keys.length > 0 && was.keys.length > 0 && now.keys.join('\n') !== was.keys.join('\n')) {
      diff.failingOtherwise.push({ ...strip(now), before: 'fail', after: 'fail', keysBefore: was.keys, keysAfter: now.keys });
    }
  }
  for (const [k, was] of before) if (!after.has(k)) diff.removed.push({ ...strip(was), before: was.verdict });
  return diff;
}
