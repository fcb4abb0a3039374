import { describe, expect, it } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import { parseUsd, PICO_PER_USD } from './money.ts';
import { costOf, costOfUse, priceFor } from './pricing.ts';

const { spec } = loadSpec();

describe('priceFor', () => {
  it('reads the table in pico-dollars per token', () => {
    expect(priceFor(spec, 'svc-v4-flash', new Date('2026-05-01T00:00:00Z'))).toEqual({ inputCacheHit: 14_000n, inputCacheMiss: 140_000n, output: 280_000n });
  });

  it('svc-v4-pro uses the promo prices through the end of 2026-05-31 UTC', () => {
    const promo = { inputCacheHit: 44_000n, inputCacheMiss: 435_000n, output: 870_000n };
    expect(priceFor(spec, 'svc-v4-pro', new Date('2026-05-31T23:00:00Z'))).toEqual(promo);
    expect(priceFor(spec, 'svc-v4-pro', new Date('2026-05-31T23:59:59.999Z'))).toEqual(promo);
    expect(priceFor(spec, 'svc-v4-pro', new Date('2026-04-24T00:00:00Z'))).toEqual(promo);
  });

  it('svc-v4-pro uses the regular prices from 2026-06-01T00:00Z', () => {
    const regular = { inputCacheHit: 174_000n, inputCacheMiss: 1_740_000n, output: 3_480_000n };
    expect(priceFor(spec, 'svc-v4-pro', new Date('2026-06-01T00:00:00Z'))).toEqual(regular);
    expect(priceFor(spec, 'svc-v4-pro', new Date('2027-01-01T00:00:00Z'))).toEqual(regular);
  });

  it('the promo window follows the spec, not a constant', () => {
    const moved = structuredClone(spec);
    moved.pricing.entries.find((e) => e.valid_until)!.valid_until = '2026-06-15';
    expect(priceFor(moved, 'svc-v4-pro', new Date('2026-06-10T00:00:00Z')).output).toBe(870_000n);
    expect(priceFor(moved, 'svc-v4-pro', new Date('2026-06-16T00:00:00Z')).output).toBe(3_480_000n);
  });

  it('a legacy alias is priced by its own entry, not the model it routes to', () => {
    const changed = structuredClone(spec);
    changed.pricing.entries.find((e) => e.model === 'svc-chat')!.output = '9.99';
    const at = new Date('2026-05-01T00:00:00Z');
    expect(priceFor(changed, 'svc-chat', at).output).toBe(9_990_000n);
    expect(priceFor(changed, 'svc-v4-flash', at).output).toBe(280_000n);
  });

  it('throws for an id with no entry', () => {
    const at = new Date('2026-05-01T00:00:00Z');
    expect(() => priceFor(spec, 'svc-nope', at)).toThrow(/no price for model "svc-nope"/);
    expect(() => priceFor(spec, 'svc-coder-v2', at)).toThrow(/no price for model "svc-coder-v2"/);
  });

  it('throws when only an ended promotion is left', () => {
    const promoOnly = structuredClone(spec);
    promoOnly.pricing.entries = promoOnly.pricing.entries.filter((e) => e.model !== 'svc-v4-pro' || e.valid_until);
    expect(() => priceFor(promoOnly, 'svc-v4-pro', new Date('2026-06-01T00:00:00Z'))).toThrow(/every entry has ended/);
  });

  it('throws for an invalid date', () => {
    expect(() => priceFor(spec, 'svc-v4-flash', new Date('nonsense'))).toThrow(/invalid date/);
  });
});

describe('costOf', () => {
  it('adds hit, miss and output tokens at their prices', () => {
    const usage = { promptCacheHitTokens: 640, promptCacheMissTokens: 1_000, completionTokens: 500 };
    // 640 * 14,000 + 1,000 * 140,000 + 500 * 280,000 pico-dollars
    expect(costOf(spec, 'svc-v4-flash', usage, new Date('2026-05-01T00:00:00Z'))).toBe(8_960_000n + 140_000_000n + 140_000_000n);
  });

  it('one million miss tokens cost exactly the table price', () => {
    const usage = { promptCacheHitTokens: 0, promptCacheMissTokens: 1_000_000, completionTokens: 0 };
    expect(costOf(spec, 'svc-v4-pro', usage, new Date('2026-06-01T00:00:00Z'))).toBe(parseUsd('1.74'));
    expect(costOf(spec, 'svc-v4-pro', usage, new Date('2026-05-31T23:00:00Z'))).toBe(parseUsd('0.435'));
  });

  it('refuses negative or fractional token counts', () => {
    const at = new Date('2026-05-01T00:00:00Z');
    expect(() => costOf(spec, 'svc-v4-flash', { promptCacheHitTokens: -1, promptCacheMissTokens: 0, completionTokens: 0 }, at)).toThrow(/promptCacheHitTokens/);
    expect(() => costOf(spec, 'svc-v4-flash', { promptCacheHitTokens: 0, promptCacheMissTokens: 0, completionTokens: 1.5 }, at)).toThrow(/completionTokens/);
  });
});

describe('costOfUse', () => {
  const at = new Date('2026-05-01T00:00:00Z');

  it('prices the prompt tokens the cache did not serve as misses', () => {
    const use = { promptTokens: 1_640, completionTokens: 500, cacheHitTokens: 640 };
    expect(costOfUse(spec, 'svc-v4-flash', use, at)).toBe(costOf(spec, 'svc-v4-flash', { promptCacheHitTokens: 640, promptCacheMissTokens: 1_000, completionTokens: 500 }, at));
  });

  it('never counts negative misses: more hits than prompt tokens are hits only', () => {
    expect(costOfUse(spec, 'svc-v4-flash', { promptTokens: 10, completionTokens: 0, cacheHitTokens: 30 }, at)).toBe(30n * 14_000n);
  });

  it('a model the spec gives no price, or a count past what can be priced, costs nothing', () => {
    expect(costOfUse(spec, 'svc-nope', { promptTokens: 100, completionTokens: 100, cacheHitTokens: 0 }, at)).toBe(0n);
    expect(costOfUse(spec, 'svc-v4-flash', { promptTokens: 1e300, completionTokens: 0, cacheHitTokens: 0 }, at)).toBe(0n);
  });
});

describe('cache-hit price against context_caching.hit_price_ratio', () => {
  /** Entries whose hit price is not exactly ratio x miss price (checked in pico-dollars, exactly). */
  function offRatio(s: Spec): string[] {
    const ratio = parseUsd(String((s.context_caching.hit_price_ratio as { value: unknown }).value)); // ratio x 1e12
    return s.pricing.entries
      .filter((e) => parseUsd(e.input_cache_hit) * PICO_PER_USD !== parseUsd(e.input_cache_miss) * ratio)
      .map((e) => `${e.model}${e.valid_until ? ` until ${e.valid_until}` : ''}`);
  }

  it('the spec states one tenth', () => {
    expect((spec.context_caching.hit_price_ratio as { value: unknown }).value).toBe('0.1');
  });

  // The description's own table breaks its "one tenth" statement once: the svc-v4-pro promotion
  // ("75% off") writes the hit price 0.044, while a tenth of 0.435 is 0.0435 (= 75% off 0.174,
  // rounded up to three places). The emulator bills the table's price. This test pins that single
  // exception, so any other entry off the ratio, or a corrected table, makes it fail.
  it('holds exactly for every entry except the svc-v4-pro promotion, which the table rounds', () => {
    expect(offRatio(spec)).toEqual(['svc-v4-pro until 2026-05-31']);
    const promo = spec.pricing.entries.find((e) => e.valid_until)!;
    expect(parseUsd(promo.input_cache_miss) / 10n).toBe(parseUsd('0.0435'));
    expect(promo.input_cache_hit).toBe('0.044');
  });

  it('holds for every model whose prices are in force on 2026-06-01', () => {
    const at = new Date('2026-06-01T00:00:00Z');
    for (const model of new Set(spec.pricing.entries.map((e) => e.model))) {
      const p = priceFor(spec, model, at);
      expect(p.inputCacheHit * 10n, model).toBe(p.inputCacheMiss);
    }
  });
});
