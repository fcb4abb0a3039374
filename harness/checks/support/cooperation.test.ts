import { describe, expect, test } from 'vitest';
import { ignoresPrefix, PREFIX, prefixPremise, reachedStop, runsPastStop, STOP, stopPremise } from './cooperation.ts';
import { shown } from './outcome.ts';

const CONTROL = 'alpha beta STOP gamma delta';

describe('the stop premise: the unconstrained answer holds the stop text with more after it', () => {
  test.each([
    ['the prompt repeated', CONTROL, undefined],
    ['fixed text from a mock server', 'This is a mock response.', expect.stringMatching(/did not repeat the prompt/)],
    ['the stop text at the very end', 'alpha beta STOP', expect.stringMatching(/followed by more text/)],
    ['no text at all', null, expect.stringMatching(/no text content/)],
  ])('%s', (_name, control, why) => {
    expect(stopPremise(control)).toEqual(why);
  });
});

describe('a stop sequence ends the output: nothing after its first occurrence', () => {
  test.each([
    ['cut before the stop text', 'alpha beta ', undefined],
    ['the stop text shown, nothing after it (left open by the description)', 'alpha beta STOP', undefined],
    ['the stop text shown and more after it', 'alpha beta STOP gamma', expect.stringMatching(/goes on after the stop sequence/)],
    ['the stop text left out but the words after it kept', 'alpha beta gamma delta', expect.stringMatching(/runs past the stop sequence/)],
  ])('%s', (_name, output, why) => {
    expect(runsPastStop(output, CONTROL)).toEqual(why);
  });

  test.each([
    ['stopped at the sequence', 'alpha beta', undefined],
    ['the sequence shown, nothing after it', 'alpha beta STOP', undefined],
    ['never got there: another answer altogether', 'Sure, here you go.', expect.stringMatching(/never reached the stop sequence/)],
    ['no text', null, expect.stringMatching(/no text content/)],
  ])('a pass needs the output to have reached the stop: %s', (_name, output, why) => {
    expect(reachedStop(output, CONTROL)).toEqual(why);
  });

  test('the sequence the checks use is in the prompt', () => {
    expect(STOP.prompt).toContain(STOP.sequence);
  });
});

describe('a prefix completion continues its prefix', () => {
  test.each([
    ['the continuation alone', ' epsilon', undefined],
    ['the prefix shown, then the rest', `${PREFIX.prefix} epsilon`, undefined],
    ['the answer as if there were no prefix', PREFIX.text, expect.stringMatching(/starts over/)],
  ])('%s', (_name, reply, why) => {
    expect(ignoresPrefix(reply)).toEqual(why);
  });

  test('premise: the control answer repeats the text; fixed text is inconclusive', () => {
    expect(prefixPremise(`Sure: ${PREFIX.text}`)).toBeUndefined();
    expect(prefixPremise('This is a mock response.')).toMatch(/did not follow the prompt/);
  });
});

describe('values in messages', () => {
  test('an absent field reads "absent", never "undefined"; long text is cut', () => {
    expect([shown(undefined), shown(null), shown('hi'), shown('x'.repeat(100), 10)]).toEqual(['absent', 'null', '"hi"', `"${'x'.repeat(10)}…"`]);
  });
});
