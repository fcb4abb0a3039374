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
 * Values judged before fast-check asks for them: the runs are drawn with fast-check's own sampler
 * (`fc.sample` of the property's arguments yields the values `fc.check` will try, in order; a test
 * holds it). The first
 * is judged alone, so an endpoint that does not answer costs one request; once it was, up to AHEAD
 * more are on the wire at once, and a property of ten runs costs two round trips at real latency,
 * not ten. Shrinking, which depends on what failed, is asked one by one as before.
 */
export const AHEAD = 16;

/** Round trips a property of `runs` values waits on one after another when nothing fails (the scheduler's chain). */
export const propertyRounds = (runs: number): number => 1 + Math.ceil((runs - 1) / AHEAD);

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
  let ahead: Ahead<T> | undefined;
  // Within one search, a value asked again (fast-check's shrinker revisits some) is judged once.
  const asked = new Map<string, Promise<Problem | undefined>>();
  let shrinking = false;
  // fast-check counts the candidates it shrinks through; past the budget it stops at the smallest failure so far.
  const arbitrary = fc.limitShrink(prop.arbitrary, SHRINK_BUDGET);
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (thrown) return true;
    let problem: Problem | undefined;
    try {
      problem = await judgedOnce(value);
    } catch (error) {
      thrown = { error };
      return true;
    }
    if (problem !== undefined && notNow.includes(problem.res.status)) {
      unanswered = problem;
      fc.pre(false);
    }
    // The first failure starts the shrinking: up to SHRINK_BUDGET round trips one after another, the
    // run's longest chain, so its requests go ahead of checks with fewer left (at a second per answer).
    if (problem !== undefined && !shrinking) {
      shrinking = true;
      ctx.lengthen?.(SHRINK_BUDGET);
    }
    return problem === undefined;
  });
  const judgedOnce = (value: T): Promise<Problem | undefined> => {
    const key = keyOf(value);
    // Always asked of `ahead` first: it counts the values asked, to match them with those it sampled.
    const answer = ahead?.judged(value, key) ?? (key === undefined ? undefined : asked.get(key)) ?? prop.judge(value);
    if (key !== undefined) asked.set(key, answer);
    return answer;
  };
  const params = { numRuns: ctx.options.runs, seed: ctx.options.seed };
  // The property's arguments as it draws them (a tuple): sampling the property itself would draw
  // with the bias of a property wrapped in another, and part from the 14th value.
  ahead = new Ahead(
    fc.sample(fc.tuple(arbitrary), params).map(([value]) => value),
    (value) => prop.judge(value),
  );
  // A skip costs a request: at most one per run, so an endpoint turning requests away does not multiply them.
  const details = await fc.check(property, { ...params, maxSkipsPerRun: 1 });
  // Shrinking and the re-check ask for values of their own, one by one.
  ahead.stop();
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

/**
 * The first values of a property, judged AHEAD at a time before fast-check asks: the n-th value
 * asked is the n-th sampled while every earlier one passed. A value asked out of that order (after a
 * failure, while shrinking) is judged then, as fast-check asks it.
 */
class Ahead<T> {
  readonly #values: readonly T[];
  /** Each sampled value's key (keyOf), to match the value asked against. */
  readonly #keys: readonly (string | undefined)[];
  readonly #judge: (value: T) => Promise<Problem | undefined>;
  readonly #started: Promise<Problem | undefined>[] = [];
  #asked = 0;
  #stopped = false;

  constructor(values: readonly T[], judge: (value: T) => Promise<Problem | undefined>) {
    this.#values = values;
    this.#keys = values.map(keyOf);
    this.#judge = judge;
  }

  /** The judgement of the value fast-check asks for now (`key`: its keyOf), when it is the next one sampled; else undefined. */
  judged(value: T, key: string | undefined): Promise<Problem | undefined> | undefined {
    const i = this.#asked++;
    // Drawn alike: fresh objects with the same JSON. A value that is not JSON (a BigInt) is asked as fast-check asks it.
    const same = value === this.#values[i] || (key !== undefined && key === this.#keys[i]);
    if (this.#stopped || i >= this.#values.length || !same) {
      this.#stopped = true;
      return undefined;
    }
    // The first value alone (its answer says the endpoint answers); after it, AHEAD from the one asked.
    const until = i === 0 ? 1 : Math.min(this.#values.length, i + AHEAD);
    for (let j = this.#started.length; j < until; j++) {
      const judged = this.#judge(this.#values[j]!);
      // A value judged ahead may never be asked (an earlier one failed): its rejection is then nobody's.
      judged.catch(() => undefined);
      this.#started.push(judged);
    }
    return this.#started[i];
  }

  stop(): void {
    this.#stopped = true;
  }
}

/** A value as the request it makes (its JSON); undefined for one that is not JSON (a BigInt): asked as fast-check asks it. */
function keyOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return undefined;
  }
}
