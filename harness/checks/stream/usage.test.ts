import { describe, expect, test } from 'vitest';
import type { ReadStream } from '../support/stream.ts';
import { usagePlacement } from './usage.ts';

const stream = (usageAt: ReadStream['usageAt'], finishes: number[]) => ({ usageAt, finishes: { count: finishes.length, first: finishes } }) as unknown as ReadStream;

describe('usagePlacement', () => {
  test('usage in the final chunk, with finish_reason, is where production sends it', () => {
    expect(usagePlacement(stream({ chunk: 5, withChoices: true }, [5]))).toBeUndefined();
  });

  test('a usage-only chunk after the final one is named', () => {
    expect(usagePlacement(stream({ chunk: 6, withChoices: false }, [5]))).toMatch(/a chunk of its own with no choices \(chunk 6, after the final chunk 5\)/);
  });

  test('no usage at all, though asked for, is named', () => {
    expect(usagePlacement(stream(undefined, [5]))).toMatch(/sends no usage, though the request asked for it/);
  });

  test('usage in another chunk that has choices is named', () => {
    expect(usagePlacement(stream({ chunk: 2, withChoices: true }, [5]))).toBe('usage arrives in chunk 2, not in the final chunk (5) with `finish_reason`');
  });
});
