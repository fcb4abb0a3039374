import type { CheckResult, TokenUse } from '#harness/core/outcome.ts';

// Token counts added up: the runner's spend and the merged results of repeated runs share this one sum.

export const NO_TOKENS: TokenUse = { promptTokens: 0, completionTokens: 0, cacheHitTokens: 0 };

export function addTokens(a: TokenUse, b: TokenUse): TokenUse {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, cacheHitTokens: a.cacheHitTokens + b.cacheHitTokens };
}

/** A result's tokens: absent where its answers reported none. */
export function spentOf(tokens: TokenUse): { tokens?: TokenUse } {
  return tokens.promptTokens + tokens.completionTokens > 0 ? { tokens: { ...tokens } } : {};
}

/** The tokens a set of results reported, added up. */
export function tokensOf(results: readonly CheckResult[]): TokenUse {
  return results.reduce((sum, r) => (r.tokens ? addTokens(sum, r.tokens) : sum), NO_TOKENS);
}
