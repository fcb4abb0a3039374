import { describe, expect, test } from 'vitest';
import { foldFimStream } from './stream.ts';

const data = (chunk: unknown) => ({ kind: 'data', data: JSON.stringify(chunk) });
const piece = (text: string) => data({ choices: [{ index: 0, text, finish_reason: null }] });
const DONE = { kind: 'done', data: '[DONE]' };

describe('foldFimStream', () => {
  test('text pieces, a final chunk and [DONE] add up to the middle', () => {
    const s = foldFimStream([piece('    c = '), piece('a + b'), data({ choices: [{ index: 0, text: '', finish_reason: 'stop' }], usage: {} }), DONE]);
    expect(s).toMatchObject({ text: '    c = a + b', pieces: 3, done: true, departures: [] });
  });

  test('a stream without [DONE], a chunk without text and events after [DONE] are named', () => {
    expect(foldFimStream([piece('x'), data({ choices: [{ index: 0, content: 'y' }] })]).departures).toEqual([
      'chunk 1 has no `choices[0].text` and is not a final chunk: {"choices":[{"index":0,"content":"y"}]}',
      'the stream does not end with `data: [DONE]`',
    ]);
    expect(foldFimStream([piece('x'), DONE, { kind: 'after-done', data: '{}' }]).departures).toEqual(['event 2 follows `data: [DONE]`']);
  });

  test('the usage carrier after the final chunk is no chunk of the middle; a `choices: []` chunk anywhere else is named', () => {
    const final = data({ choices: [{ index: 0, text: '', finish_reason: 'stop' }] });
    const carrier = data({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
    expect(foldFimStream([piece('x'), final, carrier, DONE]).departures).toEqual([]);
    expect(foldFimStream([piece('x'), carrier, final, DONE]).departures).toEqual([expect.stringMatching(/^chunk 1 has no `choices\[0\]\.text` and is not a final chunk/)]);
    expect(foldFimStream([piece('x'), final, data({ choices: [] }), DONE]).departures).toEqual([expect.stringMatching(/^chunk 2 has no `choices\[0\]\.text`/)]);
  });

  test('chunks of no text are named', () => {
    expect(foldFimStream([DONE]).departures).toEqual(['the chunks add up to no text']);
  });
});
