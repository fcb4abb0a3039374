import { shown } from './outcome.ts';

/**
 * Text as users write it: words of the scripts a request carries besides ASCII. Each range is one
 * place an encoding bug shows: two- and three-byte UTF-8 (accented Latin, CJK), four bytes and a
 * UTF-16 surrogate pair (emoji), right-to-left text, and a base letter with a combining mark.
 */
export const SCRIPT_WORDS = {
  'accented Latin': ['café', 'naïve', 'Zürich'],
  CJK: ['東京', '你好'],
  emoji: ['👋🏽', '🎉'],
  'right-to-left': ['שלום', 'مرحبا'],
  'combining marks': ['e\u0301te\u0301', 'n\u0303'],
} as const;

/** Every word above, in one line to repeat. */
export const SCRIPT_TEXT = Object.values(SCRIPT_WORDS).flat().join(' ');

/** A prompt whose answer is its text (the emulator's convention, which a real model tends to follow). */
export const SCRIPT_PROMPT = `Repeat: ${SCRIPT_TEXT}`;

/** A system message in other scripts: a request carries them in every role. */
export const SCRIPT_SYSTEM = 'Réponds brièvement. 简短回答。 أجب باختصار.';

/** A tool offered with a description outside ASCII, and a call of it with arguments outside ASCII. */
export const SCRIPT_TOOL = { type: 'function', function: { name: 'lookup_place', description: 'Sucht einen Ort — 查找地点 📍', parameters: { type: 'object', properties: { place: { type: 'string', description: 'Ortsname, z. B. Zürich' } }, required: ['place'] } } };
export const SCRIPT_TOOL_ARGUMENTS = JSON.stringify({ place: 'Zürich 東京' });
/** The tool's result: the emulator quotes it back (after a tool round trip, text quoting the result). */
export const SCRIPT_TOOL_RESULT = 'Zürich: 晴れ ☀️ 22°C';

/**
 * A stop sequence outside ASCII (CJK, then an emoji: three- and four-byte UTF-8) in the middle of a
 * text to repeat, with words of other scripts before and after it: where it must cut shows as the
 * ASCII stop check's does (cooperation.ts STOP).
 */
export const SCRIPT_STOP = { sequence: '停止🛑', prompt: 'Repeat: café 東京 停止🛑 שלום 👋🏽 fin' } as const;

/** A surrogate not part of a pair: with the `u` flag a pair is one code point, so only a lone half matches. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The words outside ASCII a request of the scripts checks sends (an ASCII word read as Latin-1 is itself). */
const SENT_WORDS: readonly string[] = [...Object.values(SCRIPT_WORDS).flat(), ...SCRIPT_TOOL_RESULT.split(/\s+/), ...SCRIPT_STOP.prompt.split(/\s+/)].filter((w) => /[^\x00-\x7f]/.test(w));

/**
 * What is wrong with a text the answer holds, as characters, or undefined: a lone UTF-16 surrogate
 * (half of an emoji: no character at all, and not encodable as UTF-8), U+FFFD (bytes a decoder could
 * not read, where the request sent characters), or one of the words sent read back as its UTF-8
 * bytes in Latin-1 (`café` as `cafÃ©`). A text that is only different (a model that did not repeat,
 * or wrote the same words composed another way) is not mangled.
 */
export function mangled(text: string, sent: readonly string[] = SENT_WORDS): string | undefined {
  if (LONE_SURROGATE.test(text)) return `it holds a lone UTF-16 surrogate, half of a character (${shown(text)})`;
  if (text.includes('\uFFFD')) return `it holds U+FFFD, the replacement character, where the request sent characters (${shown(text)})`;
  for (const word of sent) {
    const wrong = Buffer.from(word, 'utf8').toString('latin1');
    if (text.includes(wrong)) return `it holds ${shown(wrong)}, the UTF-8 bytes of ${shown(word)} read as Latin-1 (mojibake) (${shown(text)})`;
  }
  return undefined;
}

/** Whether an answer repeats `text`, whichever way its characters are composed (NFC: é as one code point or as e + U+0301). */
export const repeatsText = (answer: string, text: string): boolean => answer.normalize('NFC').includes(text.normalize('NFC'));
