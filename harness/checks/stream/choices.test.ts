import { describe, expect, test } from 'vitest';
import { streamedResponse } from '#harness/testing/sseEvents.ts';
import { readStream } from '../support/stream.ts';

/** A streamed answer of these chunks' `choices`, then `[DONE]`. */
const streamed = (choices: unknown[][]) => streamedResponse([...choices.map((c) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: c })), '[DONE]']);

const choice = (delta: object) => ({ index: 0, delta, finish_reason: null });

// stream.chunks.carry-a-choice passes on choiceChunks > 0: what readStream counts is what it judges.
describe('the chunks that carry a choice, as readStream counts them', () => {
  test('a stream ending with a usage-only chunk (`choices: []`) carries its choices in the others', async () => {
    expect((await readStream(streamed([[choice({ role: 'assistant' })], [choice({ content: 'hi' })], []]))).choiceChunks).toBe(2);
  });

  test('chunks whose choices are all empty carry none, wherever the empty ones are', async () => {
    expect((await readStream(streamed([[], [], []]))).choiceChunks).toBe(0);
    // Only the middle ones empty: the first and last carry one each.
    expect((await readStream(streamed([[choice({ role: 'assistant' })], [], [], [choice({ content: 'x' })]]))).choiceChunks).toBe(2);
  });
});
