import type { CheckResult, Verdict } from '#harness/core/outcome.ts';
import { tokensOf } from '#harness/core/tokens.ts';
import { repeatStatsOf } from './passAtK.ts';

/**
 * A mix of verdicts without both a pass and a fail merges to the first of these present. A fail is
 * evidence and wins over everything; an error beats a pass, since the run that errored could not
 * show the check to hold and the others' passes say nothing of it (a single run gates an error as
 * a failure of its severity); a pass beats unsupported and skip, which judged nothing.
 */
const PRECEDENCE: readonly Verdict[] = ['fail', 'flaky', 'error', 'pass', 'unsupported', 'skip'];

const keyOf = (r: CheckResult) => JSON.stringify([r.checkId, r.model]);

/** `flaky: 2 of 3 runs passed`, and what the runs that were neither came to. */
function flakyReason(runs: readonly CheckResult[], passes: number, fails: number): string {
  const others = runs.filter((r) => r.verdict !== 'pass' && r.verdict !== 'fail').map((r) => r.verdict);
  const rest = others.length === 0 ? '' : ` (${others.length} more ${others.length === 1 ? 'run' : 'runs'} judged nothing: ${others.join(', ')})`;
  return `flaky: ${passes} of ${passes + fails} runs passed${rest}`;
}

/** One (check, model)'s results over the repetitions that ran it, as one result. */
function mergeOne(runs: readonly CheckResult[], repeated: boolean): CheckResult {
  const passes = runs.filter((r) => r.verdict === 'pass').length;
  const fails = runs.filter((r) => r.verdict === 'fail').length;
  // No tokens when no run reported any, as a single run's result has none.
  const tokens = runs.some((r) => r.tokens) ? tokensOf(runs) : undefined;
  const spent = { durationMs: runs.reduce((ms, r) => ms + r.durationMs, 0), ...(tokens ? { tokens } : {}), ...(repeated ? { repeat: repeatStatsOf(runs.length, passes, fails) } : {}) };
  if (passes > 0 && fails > 0) {
    const failing = runs.filter((r) => r.verdict === 'fail');
    return { ...failing[0]!, verdict: 'flaky', reason: flakyReason(runs, passes, fails), failures: failing.flatMap((r) => r.failures ?? []), ...spent, repeat: repeatStatsOf(runs.length, passes, fails) };
  }
  // Agreeing runs keep the first run's evidence; a mix keeps the first run of the verdict it merges to.
  const verdict = PRECEDENCE.find((v) => runs.some((r) => r.verdict === v))!;
  return { ...runs.find((r) => r.verdict === verdict)!, ...spent };
}

/**
 * The results of `run --repeat N`, one list per repetition (each run in its own scope), merged per
 * (check id, model), in the order they first appear:
 *
 * - every run agrees: that verdict, with the first run's evidence;
 * - at least one pass and one fail: `flaky`, with the failures of every failing run and a reason
 *   saying how many passed;
 * - any other mix: the first verdict of PRECEDENCE present (fail, error, pass, unsupported, skip);
 *   skipped, unsupported and errored runs count as neither passes nor fails.
 *
 * Tokens and durations add up over the runs (the report's usage is what the whole run spent). With
 * more than one repetition each result carries `repeat`: runs, passes, fails, pass@k and pass^k.
 */
export function mergeRepetitions(repetitions: readonly (readonly CheckResult[])[]): CheckResult[] {
  const byPair = new Map<string, CheckResult[]>();
  for (const results of repetitions) {
    for (const r of results) {
      const runs = byPair.get(keyOf(r));
      if (runs) runs.push(r);
      else byPair.set(keyOf(r), [r]);
    }
  }
  return [...byPair.values()].map((runs) => mergeOne(runs, repetitions.length > 1));
}
