/**
 * Assertions every arbitrary's test shares (after fast-check's ArbitraryAssertions): the same seed
 * gives the same values, only correct values are produced, and the values a test cares about are
 * reached. Test code only: nothing under harness/ imports it outside *.test.ts.
 */
import fc, { type Arbitrary } from 'fast-check';
import { expect } from 'vitest';
import { validatorFor, type Violation } from '#harness/derive/validators/index.ts';
import type { Spec } from '#harness/spec/model.ts';

export interface SampleOptions {
  /** Values drawn per seed. */
  numRuns?: number;
  seed?: number;
}

/** Two draws with the same seed give deeply equal values, for several seeds. */
export function assertProduceSameValueGivenSameSeed<T>(arb: Arbitrary<T>, { numRuns = 20, seeds = [0, 1, 42, 2 ** 31 - 1] }: { numRuns?: number; seeds?: number[] } = {}): void {
  for (const seed of seeds) {
    expect(fc.sample(arb, { seed, numRuns }), `seed ${seed}`).toEqual(fc.sample(arb, { seed, numRuns }));
  }
  const first = fc.sample(arb, { seed: seeds[0]!, numRuns });
  expect(seeds.slice(1).some((seed) => JSON.stringify(fc.sample(arb, { seed, numRuns })) !== JSON.stringify(first)), 'different seeds give different values').toBe(true);
}

/**
 * Every value drawn is correct: `problem` returns what is wrong with a value, or undefined. All the
 * wrong values are reported at once, each with the value.
 */
export function assertProduceCorrectValues<T>(arb: Arbitrary<T>, problem: (value: T) => string | undefined, { numRuns = 200, seed = 1 }: SampleOptions = {}): void {
  const wrong = fc.sample(arb, { seed, numRuns }).flatMap((v) => {
    const p = problem(v);
    return p === undefined ? [] : [`${p}: ${JSON.stringify(v)}`];
  });
  expect(wrong).toEqual([]);
}

/** Each named predicate holds for at least one of `numRuns` values drawn. */
export function assertReaches<T>(arb: Arbitrary<T>, targets: Record<string, (value: T) => boolean>, { numRuns = 200, seed = 1 }: SampleOptions = {}): void {
  const values = fc.sample(arb, { seed, numRuns });
  const missed = Object.entries(targets).filter(([, reached]) => !values.some(reached)).map(([name]) => name);
  expect(missed, `not reached in ${numRuns} values (seed ${seed})`).toEqual([]);
}

/** Must-level violations of the compiled request validator for the model (its per-model bounds). */
export function requestViolations(spec: Spec, model: string, body: unknown): Violation[] {
  return validatorFor(spec, 'chat_completion_request', { profile: 'default', model })(body).filter((v) => v.level === 'must');
}

/** JSON pointer of a dotted request path: `messages.1.content` -> `/messages/1/content`. */
export function pointerOf(dotted: string): string {
  return `/${dotted.split('.').join('/')}`;
}
