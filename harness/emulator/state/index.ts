export { Balances, type BalanceInfo, type StartingBalance } from './balances.ts';
export { DEFAULT_MAX_ENTRIES, PromptCache, type PromptCacheOptions } from './promptCache.ts';
export { ConcurrencyLimiter } from './concurrency.ts';
export { Capacity } from './capacity.ts';
export { RequestsInFlight } from './inFlight.ts';
export { retryAfterSeconds } from './retryAfter.ts';
