export { Balances, type BalanceInfo, type StartingBalance } from './balances.ts';
export { DEFAULT_MAX_ENTRIES, PromptCache, type PromptCacheOptions } from './promptCache.ts';
export { ConcurrencyLimiter } from './concurrency.ts';
export { retryAfterSeconds } from './retryAfter.ts';
