import fc, { type Arbitrary } from 'fast-check';
import type { TypeName } from '#harness/spec/model.ts';

/**
 * Value builders shared by the request arbitraries. Bounds come in from the spec (specReading.ts);
 * nothing here knows a field.
 */

/** Beyond this a far-out integer stops being "an integer" to many JSON parsers (int32). */
const INT32_MAX = 2 ** 31 - 1;

/**
 * A number in [min, max], the bounds themselves included and drawn often: half the time one of
 * the two bounds, else anywhere between. Shrinks towards `min`.
 */
export function inBounds(min: number, max: number, integer: boolean): Arbitrary<number> {
  if (!(min <= max)) throw new Error(`inBounds: min ${min} is above max ${max}`);
  const between = integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
  return fc.oneof(fc.constantFrom(min, max), between);
}

/**
 * A number beyond a bound: `just` (the first refused value) and far beyond it, often exactly those
 * two, else anywhere between. `direction` +1 goes above a maximum, -1 below a minimum.
 */
export function beyond(just: number, direction: 1 | -1, integer: boolean): Arbitrary<number> {
  const distance = Math.max(1_000, Math.abs(just) * 1_000);
  let far = just + direction * distance;
  if (integer) far = direction === 1 ? Math.min(far, INT32_MAX) : Math.max(far, -INT32_MAX);
  const [lo, hi] = direction === 1 ? [just, far] : [far, just];
  const between = integer ? fc.integer({ min: lo, max: hi }) : fc.double({ min: lo, max: hi, noNaN: true });
  return fc.oneof(fc.constantFrom(just, far), between);
}

/** One character of a code point range. */
const codePoint = (min: number, max: number): Arbitrary<string> => fc.integer({ min, max }).map((c) => String.fromCodePoint(c));

/**
 * Characters of the scripts users write besides ASCII, one arbitrary per range, each a place an
 * encoding bug shows: accented Latin (two bytes of UTF-8), CJK (three), emoji (four, and a UTF-16
 * surrogate pair), right-to-left Hebrew and Arabic, and a Latin letter with a combining mark.
 */
export const SCRIPT_CHARS: Readonly<Record<string, Arbitrary<string>>> = {
  'accented Latin': codePoint(0xc0, 0x17f),
  CJK: codePoint(0x4e00, 0x9fff),
  emoji: codePoint(0x1f600, 0x1f64f),
  Hebrew: codePoint(0x5d0, 0x5ea),
  Arabic: codePoint(0x627, 0x64a),
  'combining marks': fc.tuple(codePoint(0x61, 0x7a), codePoint(0x300, 0x36f)).map(([letter, mark]) => letter + mark),
};

/** A word of one script: one to five of its characters. */
const scriptWord = (): Arbitrary<string> => fc.oneof(...Object.values(SCRIPT_CHARS).map((unit) => fc.string({ unit, minLength: 1, maxLength: 5 })));

/** Text in the scripts of SCRIPT_CHARS: one to five words, each of one script (at most 54 UTF-16 units). */
export function scriptText(): Arbitrary<string> {
  return fc.array(scriptWord(), { minLength: 1, maxLength: 5 }).map((words) => words.join(' '));
}

/**
 * Short printable text: a stop sequence. ASCII half the time (what shrinking goes to), else a word of
 * one of SCRIPT_CHARS, or any printable graphemes of Unicode (fast-check's: ZWJ sequences, flags,
 * marks on any base).
 */
export function shortString(): Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }) },
    { weight: 1, arbitrary: scriptWord() },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }) },
  );
}

let prose: Arbitrary<string> | undefined;

/**
 * A few words: message content, as users write it: prose in ASCII or words of other scripts (half
 * each; shrinking goes to the prose). One arbitrary for every caller (an arbitrary holds no state
 * between draws): making fast-check's lorem builds its word list, 4 ms each time, and a conversation
 * asked for three.
 */
export function shortText(): Arbitrary<string> {
  return (prose ??= fc.oneof(fc.lorem({ maxCount: 6 }), scriptText()));
}

/**
 * An array of `item` with at most `max` items (when stated), reaching `max` itself half the time.
 */
export function boundedArray<T>(item: Arbitrary<T>, min: number, max: number | undefined): Arbitrary<T[]> {
  if (max === undefined) return fc.array(item, { minLength: min, maxLength: Math.max(min, 3) });
  if (!(min <= max)) throw new Error(`boundedArray: min ${min} is above max ${max}`);
  return fc.oneof(fc.array(item, { minLength: max, maxLength: max }), fc.array(item, { minLength: min, maxLength: max }));
}

/** Longer than `max`: one item too many, or many more. */
export function tooLongArray<T>(item: Arbitrary<T>, max: number): Arbitrary<T[]> {
  return fc.oneof(fc.array(item, { minLength: max + 1, maxLength: max + 1 }), fc.array(item, { minLength: max + 2, maxLength: Math.max(max + 2, max * 16) }));
}

/**
 * Strings that are not among `allowed`: near misses (upper case, a suffix) and a plain stranger.
 * No empty or padded strings: a lenient server may read those as unset or trim them, and the break
 * should be plain.
 */
export function offList(allowed: readonly unknown[]): Arbitrary<string> {
  return fc.constantFrom(...offListValues(allowed));
}

/** offList's strings, the plain stranger first. */
export function offListValues(allowed: readonly unknown[]): string[] {
  const words = allowed.filter((v): v is string => typeof v === 'string');
  const candidates = ['not-a-listed-value', ...words.flatMap((w) => [w.toUpperCase(), `${w}-x`])];
  return [...new Set(candidates)].filter((c) => !allowed.includes(c));
}

/**
 * JSON values of none of `types`, chosen to be plainly wrong (no numeric strings, no 0/1 for a
 * boolean: a lenient parser may read those as the right type). For an integer, a fraction too.
 */
export function wrongTypeValues(types: readonly TypeName[]): Arbitrary<unknown> {
  return fc.constantFrom(...wrongTypeCandidates(types).map((c) => c.value));
}

/** wrongTypeValues's values, one per JSON type the field does not take, each with that type. */
export function wrongTypeCandidates(types: readonly TypeName[]): { value: unknown; type: TypeName }[] {
  const candidates: { value: unknown; type: TypeName }[] = [
    { value: 'wrong-type', type: 'string' },
    { value: 12345, type: 'integer' },
    { value: 1.5, type: 'number' },
    { value: true, type: 'boolean' },
    { value: ['x'], type: 'array' },
    { value: { value: 'x' }, type: 'object' },
  ];
  const admits = (t: TypeName) => types.includes(t) || (t === 'integer' && types.includes('number'));
  const out = candidates.filter((c) => !admits(c.type));
  if (out.length === 0) throw new Error(`wrongTypeValues: every JSON type is allowed (${types.join(', ')})`);
  return out;
}
