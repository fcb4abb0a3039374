import type { TokenUse } from '#harness/core/outcome.ts';
import type { Price, Spec } from '#harness/spec/model.ts';
import { parseUsd } from './money.ts';

/** Prices of one model at one instant, in pico-dollars per token. */
export interface TokenPrices {
  inputCacheHit: bigint;
  inputCacheMiss: bigint;
  output: bigint;
}

/** Token counts of one request, as the `usage` object reports them. */
export interface TokenUsage {
  promptCacheHitTokens: number;
  promptCacheMissTokens: number;
  completionTokens: number;
}

const MS_PER_DAY = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The first instant after a `valid_until` date, in ms since the epoch. The description writes
 * "until 2026-05-31" without an hour or a time zone; like the spec's `valid_until_note` ("read as
 * through 2026-05-31 23:59:59 UTC"), the entry applies through the end of that day in UTC, so it
 * ends at 2026-06-01T00:00:00Z (exclusive).
 */
function endOfValidity(validUntil: string, model: string): number {
  const m = DATE.exec(validUntil);
  const start = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (!m || new Date(start).toISOString().slice(0, 10) !== validUntil) {
    throw new Error(`pricing: entry for ${model} has valid_until ${JSON.stringify(validUntil)}, which is not a YYYY-MM-DD date`);
  }
  return start + MS_PER_DAY;
}

/**
 * The pricing entry in force for `modelId` at `at`. Entries are matched on the id exactly, so a
 * legacy alias is priced by its own entry, not by the model it routes to. A dated entry (a promotion)
 * wins while it runs; if several overlap, the one ending first. After it, the undated entry applies.
 */
function entryFor(spec: Spec, modelId: string, at: Date): Price {
  const t = at.getTime();
  if (Number.isNaN(t)) throw new Error(`pricing: invalid date for ${modelId}`);
  const entries = spec.pricing.entries.filter((e) => e.model === modelId);
  if (entries.length === 0) throw new Error(`pricing: no price for model ${JSON.stringify(modelId)} in spec.pricing.entries`);

  const running = entries
    .filter((e) => e.valid_until !== undefined)
    .map((e) => ({ e, end: endOfValidity(e.valid_until!, modelId) }))
    .filter(({ end }) => t < end)
    .sort((a, b) => a.end - b.end);
  if (running[0]) return running[0].e;

  const undated = entries.filter((e) => e.valid_until === undefined);
  if (undated.length > 1) throw new Error(`pricing: ${undated.length} undated entries for model ${modelId}; expected one`);
  if (!undated[0]) throw new Error(`pricing: no price for model ${modelId} at ${at.toISOString()}: every entry has ended`);
  return undated[0];
}

/** A price per `per_tokens` tokens (a decimal string) as pico-dollars per token; it must divide exactly. */
function perToken(spec: Spec, price: string, what: string): bigint {
  const per = spec.pricing.per_tokens;
  if (!Number.isSafeInteger(per) || per <= 0) throw new Error(`pricing: per_tokens must be a positive integer, got ${per}`);
  const total = parseUsd(price);
  if (total % BigInt(per) !== 0n) throw new Error(`pricing: ${what} ${price} per ${per} tokens is not a whole number of pico-dollars per token`);
  return total / BigInt(per);
}

/** Prices of `modelId` in force at `at`, in pico-dollars per token. Throws for an id the pricing table lacks. */
export function priceFor(spec: Spec, modelId: string, at: Date): TokenPrices {
  const e = entryFor(spec, modelId, at);
  return {
    inputCacheHit: perToken(spec, e.input_cache_hit, `${modelId} input_cache_hit`),
    inputCacheMiss: perToken(spec, e.input_cache_miss, `${modelId} input_cache_miss`),
    output: perToken(spec, e.output, `${modelId} output`),
  };
}

function count(n: number, name: string): bigint {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`pricing: ${name} must be a non-negative integer, got ${n}`);
  return BigInt(n);
}

/** What a request costs, in pico-dollars: hit, miss and output tokens, each at its price. */
export function costOf(spec: Spec, modelId: string, usage: TokenUsage, at: Date): bigint {
  const p = priceFor(spec, modelId, at);
  return (
    count(usage.promptCacheHitTokens, 'promptCacheHitTokens') * p.inputCacheHit +
    count(usage.promptCacheMissTokens, 'promptCacheMissTokens') * p.inputCacheMiss +
    count(usage.completionTokens, 'completionTokens') * p.output
  );
}

/**
 * What a use of tokens costs, in pico-dollars, the prompt tokens the cache did not serve being
 * misses. The one place a run prices tokens (its cost, its budget, its estimate). A use the spec
 * cannot price (no price for the model at `at`, a count past what can be priced) costs 0n: its
 * tokens are still reported, they are not priced.
 */
export function costOfUse(spec: Spec, modelId: string, use: TokenUse, at: Date): bigint {
  const usage = { promptCacheHitTokens: use.cacheHitTokens, promptCacheMissTokens: Math.max(0, use.promptTokens - use.cacheHitTokens), completionTokens: use.completionTokens };
  try {
    return costOf(spec, modelId, usage, at);
  } catch {
    return 0n;
  }
}
