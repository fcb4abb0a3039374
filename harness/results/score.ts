import type { CheckResult, Severity, Verdict } from '#harness/core/outcome.ts';
import { standingOf } from './gate.ts';
import type { RunRecord } from './runRecord.ts';

/**
 * A cell's score, 0 to 100: how much of what the run judged held, weighted by severity.
 *
 *     score = round(100 × earned / weight), both summed over the scored results of the cell
 *
 * - a result is *scored* when its verdict is pass, fail, flaky or error (an error counts as a
 *   failure, as the gate counts it); skips (of any kind) and unsupported are not;
 * - its weight is 3 for must, 2 for should, 1 for advisory;
 * - it earns its whole weight when it passed, half of it when it was flaky, nothing otherwise;
 * - a *known* failure (`standingOf(...).counts === 'known'`: listed in the known-failures file for
 *   the cause it failed for, or failing in the `--baseline` too) is left out of both sums and
 *   counted apart, in `known`: it is no news about the endpoint;
 * - `round` is Math.round (halves up), done once on the exact ratio: the sums are integers (in
 *   half-weights), so the same verdicts give the same score whatever their order;
 * - a cell with nothing scored has no score (`score` undefined), never 0 or 100.
 *
 * The score does not decide anything: the outcome and exit code come from gate.ts alone (a cell
 * can score 97 and FAIL on its one must failure).
 */
export const SCORE_WEIGHT: Readonly<Record<Severity, number>> = { must: 3, should: 2, advisory: 1 };

/** The verdicts the score counts. */
export const SCORED_VERDICTS: ReadonlySet<Verdict> = new Set<Verdict>(['pass', 'fail', 'flaky', 'error']);

export interface CellScore {
  /** 0..100, an integer; undefined when nothing was scored. */
  score: number | undefined;
  /** Sum of the weights the scored results earned (passes whole, flaky half). */
  earned: number;
  /** Sum of the weights of the scored results. */
  weight: number;
  /** Scored results, by verdict (known failures not among them). */
  scored: { pass: number; fail: number; flaky: number; error: number };
  /** Known failures (known-failures file, or failing in the baseline too): left out of the score. */
  known: number;
}

/** Twice the weight a result earns: integers, so the sums are exact. */
function earnedHalves(r: CheckResult): number {
  const w = SCORE_WEIGHT[r.severity];
  if (r.verdict === 'pass') return 2 * w;
  if (r.verdict === 'flaky') return w;
  return 0;
}

/** The score of one cell (see the top of this file). Pure: reads the record, changes nothing. */
export function scoreOf(record: RunRecord): CellScore {
  const scored = { pass: 0, fail: 0, flaky: 0, error: 0 };
  let known = 0;
  let earned2 = 0;
  let weight2 = 0;
  for (const r of record.results) {
    if (!SCORED_VERDICTS.has(r.verdict)) continue;
    if (standingOf(r, record.options).counts === 'known') {
      known += 1;
      continue;
    }
    scored[r.verdict as keyof typeof scored] += 1;
    earned2 += earnedHalves(r);
    weight2 += 2 * SCORE_WEIGHT[r.severity];
  }
  return {
    score: weight2 === 0 ? undefined : Math.round((100 * earned2) / weight2),
    earned: earned2 / 2,
    weight: weight2 / 2,
    scored,
    known,
  };
}

/** The score as a badge or a table shows it: `87/100`, or `no score`. */
export function scoreText(score: number | undefined): string {
  return score === undefined ? 'no score' : `${score}/100`;
}
