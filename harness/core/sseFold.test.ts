import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { foldSse, SseFold, type SseEvent, type SseFacts } from './sseFold.ts';

const STREAM = ': keep-alive\n\ndata: {"n":1}\n\nevent: note\ndata: {"n":2}\n\ndata: [DONE]\n\ndata: late\n\n';

function foldPieces(pieces: readonly (string | Uint8Array)[]): { events: SseEvent[]; facts: SseFacts } {
  const events: SseEvent[] = [];
  const fold = new SseFold((e) => events.push(e));
  for (const p of pieces) typeof p === 'string' ? fold.feed(p) : fold.feedBytes(p);
  return { events, facts: fold.end() };
}

describe('SseFold: the one SSE reader', () => {
  test('classifies each event: comment, data, done, after-done; counts what the stream holds', () => {
    const { events, facts } = foldSse(STREAM);
    expect(events.map((e) => [e.kind, e.data, e.event])).toEqual([
      ['comment', ':keep-alive', undefined],
      ['data', '{"n":1}', undefined],
      ['data', '{"n":2}', 'note'],
      ['done', '[DONE]', undefined],
      ['after-done', 'late', undefined],
    ]);
    expect(facts).toEqual({ events: 4, comments: 1, commentKinds: ['keep-alive'], done: true, eventsAfterDone: 1, namedEvents: 1, eventNames: ['note'] });
  });

  test('an event the body never closed is noted as unfinished, not handed out; a trailing comment is not an event', () => {
    const cut = foldSse('data: a\n\ndata: [DONE]\n');
    expect(cut.events.map((e) => e.data)).toEqual(['a']);
    expect(cut.facts).toMatchObject({ done: false, unfinished: { data: '[DONE]' }, unterminatedTail: 'data: [DONE]\n' });
    const comment = foldSse('data: a\n\n: bye');
    expect(comment.facts.unfinished).toBeUndefined();
    expect(comment.facts.unterminatedTail).toBe(': bye');
    expect(comment.events.map((e) => e.kind)).toEqual(['data', 'comment']);
    // A name alone makes no event: nothing is lost.
    expect(foldSse('data: a\n\nevent: x\n').facts.unfinished).toBeUndefined();
  });

  test('bytes that are not UTF-8 flag their event and say where, also when a character is split across pieces', () => {
    const euro = Buffer.from('data: €\n\n');
    const { events, facts } = foldPieces([euro.subarray(0, 7), euro.subarray(7), Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xc3, 0x28, 0x0a, 0x0a])]);
    expect(events.map((e) => [e.data, e.invalidUtf8])).toEqual([
      ['€', undefined],
      ['\uFFFD(', true],
    ]);
    expect(facts.invalidUtf8).toBe('byte 0xC3 at offset 17');
  });

  test('text outside ASCII fed as bytes cut anywhere, a character split between pieces, folds as the whole text does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const bytes = Buffer.from(`data: ${JSON.stringify({ content: text })}\n\ndata: [DONE]\n\n`);
        const at = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i]));
        const { events, facts } = foldPieces(pieces);
        expect(facts.invalidUtf8).toBeUndefined();
        expect(events.map((e) => [e.data, e.invalidUtf8])).toEqual([[JSON.stringify({ content: text }), undefined], ['[DONE]', undefined]]);
      }),
      { seed: 47, numRuns: 200 },
    );
  });

  test('a character whose bytes a server splits between two events is not UTF-8 in either: both are flagged', () => {
    const wave = Buffer.from('👋');
    const { events, facts } = foldPieces([Buffer.concat([Buffer.from('data: "'), wave.subarray(0, 2), Buffer.from('"\n\ndata: "'), wave.subarray(2), Buffer.from('"\n\n')])]);
    expect(events.map((e) => e.invalidUtf8)).toEqual([true, true]);
    expect(facts.invalidUtf8).toBe('byte 0xF0 at offset 7');
  });

  test('an event longer than maxEventChars stops the reading and says so', () => {
    const events: SseEvent[] = [];
    const fold = new SseFold((e) => events.push(e), { maxEventChars: 16 });
    fold.feed('data: short\n\n');
    fold.feed(`data: ${'x'.repeat(40)}`);
    fold.feed('\n\ndata: after\n\n');
    expect(events.map((e) => e.data)).toEqual(['short']);
    expect(fold.end().overflow).toBe('one event or line is longer than 16 characters');
  });

  test('the unterminated tail is the text after the last pair of line ends, paired left to right', () => {
    const oracle = (text: string) => {
      let end = 0;
      for (const m of text.matchAll(/(?:\r\n|\n|\r(?!\n))(?:\r\n|\n|\r(?!\n))/g)) end = m.index + m[0].length;
      return text.slice(end).trim() === '' ? undefined : text.slice(end);
    };
    const texts = fc.array(fc.constantFrom('data: a', ': c', '\n', '\n', '\r\n'), { maxLength: 16 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(texts, fc.integer({ min: 0, max: 40 }), (text, cut) => {
        expect(foldPieces([text.slice(0, cut), text.slice(cut)]).facts.unterminatedTail).toBe(oracle(text));
      }),
      { numRuns: 500 },
    );
  });

  test('pieces cut anywhere (CRLF split too) fold as the whole text does', () => {
    const text = STREAM.replaceAll('\n', '\r\n') + 'data: tail';
    const whole = foldSse(text);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), text.length];
        const pieces = at.slice(1).map((end, i) => text.slice(at[i], end));
        expect(foldPieces(pieces)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});
