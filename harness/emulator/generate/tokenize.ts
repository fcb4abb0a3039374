/**
 * A tokenizer approximation: words of up to six letters, digits one by one, punctuation and
 * whitespace runs on their own, each with its leading space. Real tokenizers differ; what matters
 * for the emulator is that counts are deterministic, additive over concatenation of token strings,
 * and grow with the text.
 */
const TOKEN = /\s?[A-Za-z]{1,6}|\s?\d|\s?[^\sA-Za-z\d]|\s+/gu;

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
