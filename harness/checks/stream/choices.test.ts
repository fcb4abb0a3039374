import { describe, expect, test } from 'vitest';
import type { ReadStream } from '../support/stream.ts';
import { choiceShown } from './choices.ts';

const text = (chars: number) => ({ text: 'x'.repeat(chars), chars });
/** A stream as readStream leaves it: the first and last chunk, the finishes, what the choices carried. */
const stream = (first: unknown[] | undefined, last: unknown[] | undefined, seen: { finishes?: number; content?: number; usageWithChoices?: boolean } = {}) =>
  ({
    chunks: 5,
    first: first === undefined ? {} : { choices: first },
    last: last === undefined ? {} : { choices: last },
    finishes: { count: seen.finishes ?? 0, first: [] },
    message: { content: text(seen.content ?? 0), reasoning: text(0), toolCalls: [], moreToolCalls: false, finishReason: null, usage: undefined },
    ...(seen.usageWithChoices === undefined ? {} : { usageAt: { chunk: 4, withChoices: seen.usageWithChoices } }),
  }) as unknown as ReadStream;

describe('choiceShown', () => {
  test('a stream ending with a usage-only chunk (`choices: []`) shows its choices in the others', () => {
    expect(choiceShown(stream([{ index: 0, delta: { role: 'assistant' } }], []))).toBe(true);
    expect(choiceShown(stream([], [], { finishes: 1 }))).toBe(true);
    expect(choiceShown(stream([], [], { content: 3 }))).toBe(true);
    expect(choiceShown(stream([], [], { usageWithChoices: true }))).toBe(true);
  });

  test('chunks whose choices are all empty or absent show none', () => {
    expect(choiceShown(stream([], []))).toBe(false);
    expect(choiceShown(stream(undefined, undefined, { usageWithChoices: false }))).toBe(false);
  });
});
