import { describe, expect, test } from 'vitest';
import { mangled, repeatsText, SCRIPT_STOP, SCRIPT_TEXT, SCRIPT_WORDS } from './scripts.ts';

describe('mangled: text judged as characters', () => {
  test('the text as sent, composed either way, is not mangled, and repeats itself', () => {
    expect(mangled(SCRIPT_TEXT)).toBeUndefined();
    expect(mangled(SCRIPT_TEXT.normalize('NFC'))).toBeUndefined();
    expect(repeatsText(`Sure: ${SCRIPT_TEXT.normalize('NFC')}`, SCRIPT_TEXT)).toBe(true);
    expect(repeatsText('café', 'cafe\u0301')).toBe(true);
    // An answer that says something else is different, not mangled.
    expect(mangled('I would rather not.')).toBeUndefined();
    expect(repeatsText('I would rather not.', SCRIPT_TEXT)).toBe(false);
  });

  test('half a surrogate pair (an emoji split between two deltas) is mangled; the pair whole is not', () => {
    const [high, low] = ['👋'.charAt(0), '👋'.charAt(1)];
    expect(mangled(` ${high}`)).toMatch(/lone UTF-16 surrogate/);
    expect(mangled(`${low} there`)).toMatch(/lone UTF-16 surrogate/);
    expect(mangled(`${high}${low}`)).toBeUndefined();
  });

  test('U+FFFD, bytes a decoder could not read, is mangled', () => {
    expect(mangled('caf\uFFFD')).toMatch(/U\+FFFD/);
  });

  test('a word sent, read back as its UTF-8 bytes in Latin-1, is mangled: every word of every script, and the stop prompt\'s', () => {
    for (const word of [...Object.values(SCRIPT_WORDS).flat(), '停止🛑']) {
      expect(mangled(`x ${Buffer.from(word, 'utf8').toString('latin1')} y`), word).toMatch(/read as Latin-1/);
    }
    expect(SCRIPT_STOP.prompt).toContain(SCRIPT_STOP.sequence);
  });
});
