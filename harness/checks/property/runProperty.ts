import fc, { type Arbitrary } from 'fast-check';
import type { Failure } from '#harness/core/outcome.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { failure, pass } from '../support/outcome.ts';

/** What is wrong with the answer to one value: the message and the exchange. */
export interface Problem {
  message: string;
  res: CheckResponse;
  /** Extra fields of the failure (a JSON pointer, the spec entry broken, its defect, the check that owns it). */
  extra?: Pick<Failure, 'path' | 'specRef' | 'defect' | 'ownedBy'>;
}

export interface PropertyCheck<T> {
  arbitrary: Arbitrary<T>;
  /** Sends one value and judges the answer: a problem, or undefined when the property holds. */
  judge(value: T): Promise<Problem | undefined>;
  /** The check that owns the shrunk counterexample's problem, when another does (asked once, not while searching). */
  owner?(value: T, problem: Problem): Promise<string | undefined>;
}

/**
 * Requests fast-check may spend shrinking a counterexample, beyond the run's own. A live target
 * costs money per request; past this, shrinking stops at the smallest failure found so far (still
 * replayable by its seed and path).
 */
export const SHRINK_BUDGET = 100;

/**
 * Runs a property over `ctx.options.runs` values from `ctx.options.seed`. On a failure fast-check
 * shrinks it; the shrunk counterexample is then sent once more and reported only if it still
 * fails (a flaky answer is a pass with a note). The failure carries the re-check's exchange as
 * evidence and `{ seed, path }` as reproducer (the runner adds the curl command from the evidence).
 *
 * An exception while sending (the target unreachable, a timeout: a HarnessError) stops the run
 * without shrinking and is rethrown, so the check ends in `error`, not `fail`.
 */
export async function runProperty<T>(ctx: CheckContext, prop: PropertyCheck<T>, describe: (value: T) => string): Promise<CheckOutcome> {
  let thrown: { error: unknown } | undefined;
  // A value answered "not now" (429, 503) on every try was never judged: skipped, as a value a precondition refuses.
  const notNow = ctx.spec.errors.retry.statuses;
  let unanswered: Problem | undefined;
  // fast-check counts the candidates it shrinks through; past the budget it stops at the smallest failure so far.
  const property = fc.asyncProperty(fc.limitShrink(prop.arbitrary, SHRINK_BUDGET), async (value) => {
    if (thrown) return true;
    let problem: Problem | undefined;
    try {
      problem = await prop.judge(value);
    } catch (error) {
      thrown = { error };
      return true;
    }
    if (problem !== undefined && notNow.includes(problem.res.status)) {
      unanswered = problem;
      fc.pre(false);
    }
    return problem === undefined;
  });
  // A skip costs a request: at most one per run, so an endpoint turning requests away does not multiply them.
  const details = await fc.check(property, { numRuns: ctx.options.runs, seed: ctx.options.seed, maxSkipsPerRun: 1 });
  if (thrown) throw thrown.error;
  // Too many values turned away to judge the rest: the failure's evidence is that "not now", which the runner makes inconclusive (runner/execute.ts).
  if (unanswered && (details.numRuns === 0 || (details.failed && details.counterexample === null))) return { verdict: 'fail', failures: [failure(unanswered.message, unanswered.res, unanswered.extra)] };
  if (!details.failed) return pass(undefined, details.numRuns);
  if (details.counterexample === null) throw new Error(`fast-check stopped without a counterexample (seed ${details.seed}): ${details.interrupted ? 'interrupted' : 'too many skipped values'}`);

  const [value] = details.counterexample;
  const replay = `seed ${details.seed}, path "${details.counterexamplePath}"`;
  const judged = await prop.judge(value);
  const ownedBy = judged && (await prop.owner?.(value, judged));
  const again = judged && ownedBy ? { ...judged, extra: { ...judged.extra, ownedBy } } : judged;
  if (!again) return pass(`a failure found after ${details.numRuns} of ${ctx.options.runs} runs (${replay}) did not recur when its shrunk counterexample was sent again: ${describe(value)}`);
  const message = `${again.message} — shrunk counterexample (${details.numShrinks} shrinks; ${replay}), sent again with the same answer: ${describe(value)}`;
  // The shrinking is context: the defect is the answer's, as judged before it was said.
  const defect = again.extra?.defect ?? failure(again.message, again.res, again.extra).defect;
  return { verdict: 'fail', failures: [failure(message, again.res, { ...again.extra, ...(defect ? { defect } : {}), reproducer: { curl: '', seed: details.seed, path: details.counterexamplePath } })] };
}
