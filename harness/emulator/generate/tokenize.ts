/**
 * A tokenizer approximation: words of up to six letters, digits one by one, punctuation and
 * whitespace runs on their own, each with its leading space. Real tokenizers differ; what matters
 * for the emulator is that counts are deterministic, additive over concatenation of token strings,
 * and grow with the text. Outside ASCII a token is one character (a code point, never half of a
 * surrogate pair) with the marks that go with it (combining accents, an emoji's skin tone, a
 * zero-width-joined emoji), so a cut at a token boundary never splits what a reader sees as one
 * character: `e` + U+0301 stays together, as does 👋🏽.
 */
const TOKEN = /\s?[A-Za-z]{1,6}(?:[\p{M}\p{Emoji_Modifier}\uFE0F]|\u200D\p{Extended_Pictographic})*|\s?\d|\s?[^\sA-Za-z\d](?:[\p{M}\p{Emoji_Modifier}\uFE0F]|\u200D\p{Extended_Pictographic})*|\s+/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function countTokens(text: string): number {
  return tokenize(text).length;
}

/** The first `n` tokens of a text, joined back. */
export function firstTokens(text: string, n: number): string {
  return tokenize(text).slice(0, Math.max(0, n)).join('');
}
