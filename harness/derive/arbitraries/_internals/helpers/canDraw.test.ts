import fc from 'fast-check';
import { expect, test } from 'vitest';
import { canDraw } from './canDraw.ts';

const everySample = <T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => boolean, samples: number) => fc.sample(arbitrary, { numRuns: samples, seed: 0 }).some(check);

test('answers as testing every one of the first samples does', () => {
  const arbitraries = [fc.integer({ min: -1000, max: 1000 }), fc.nat(50).chain((n) => fc.constant(n * 3)), fc.array(fc.nat(9)).map((xs) => xs.length)];
  fc.assert(
    fc.property(fc.constantFrom(...arbitraries), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 12 }), (arbitrary, threshold, samples) => {
      const check = (n: number) => n > threshold;
      expect(canDraw(arbitrary, check, samples)).toBe(everySample(arbitrary, check, samples));
    }),
  );
});

test('draws beyond the first value only when the first fails', () => {
  const seen: number[] = [];
  expect(canDraw(fc.integer(), (n) => (seen.push(n), true), 10)).toBe(true);
  expect(seen).toHaveLength(1);
  seen.length = 0;
  expect(canDraw(fc.integer(), (n) => (seen.push(n), false), 10)).toBe(false);
  expect(seen).toEqual(fc.sample(fc.integer(), { numRuns: 10, seed: 0 }));
});
