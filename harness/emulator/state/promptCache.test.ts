import { beforeEach, describe, expect, it } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { PromptCache } from './promptCache.ts';

const { spec } = loadSpec();
const MINUTE = 60_000;

/** n distinct tokens, prefixed so that two prompts share nothing unless built to. */
function tokens(n: number, tag = 't'): string[] {
  return Array.from({ length: n }, (_, i) => `${tag}${i}`);
}

describe('PromptCache', () => {
  let now: number;
  let cache: PromptCache;
  beforeEach(() => {
    now = Date.UTC(2026, 4, 1);
    cache = new PromptCache(spec, () => now);
  });

  it('reads the minimum and the lifetime from the spec', () => {
    expect((spec.context_caching.min_tokens as { value: unknown }).value).toBe(64);
    expect((spec.context_caching.lifetime as { value_minutes: unknown }).value_minutes).toBe(30);
    const other = structuredClone(spec);
    (other.context_caching.min_tokens as { value: number }).value = 10;
    (other.context_caching.lifetime as { value_minutes: number }).value_minutes = 1;
    const small = new PromptCache(other, () => now);
    const prompt = tokens(25);
    small.lookup('k', prompt);
    expect(small.lookup('k', prompt)).toBe(20);
    now += 2 * MINUTE;
    expect(small.lookup('k', prompt)).toBe(0);
  });

  it('a first request misses', () => {
    expect(cache.split('k', tokens(300))).toEqual({ hit: 0, miss: 300 });
  });

  it('an identical second request hits floor(n/64)*64', () => {
    for (const n of [64, 100, 128, 300, 1000]) {
      const prompt = tokens(n, `p${n}-`);
      cache.lookup('k', prompt);
      const { hit, miss } = cache.split('k', prompt);
      expect(hit).toBe(Math.floor(n / 64) * 64);
      expect(hit + miss).toBe(n);
    }
  });

  it('a prompt of 63 tokens never hits', () => {
    const prompt = tokens(63);
    for (let i = 0; i < 3; i++) expect(cache.lookup('k', prompt)).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('a shared 128-token prefix with a different tail hits 128', () => {
    const shared = tokens(128, 'shared');
    cache.lookup('k', [...shared, ...tokens(90, 'a')]);
    expect(cache.lookup('k', [...shared, ...tokens(200, 'b')])).toBe(128);
  });

  it('a prefix that ends inside a unit only hits the whole units before it', () => {
    const shared = tokens(100, 'shared');
    cache.lookup('k', [...shared, ...tokens(100, 'a')]);
    expect(cache.lookup('k', [...shared, ...tokens(100, 'b')])).toBe(64);
  });

  it('hits never exceed the prompt, and are a multiple of 64', () => {
    const long = tokens(500);
    cache.lookup('k', long);
    for (const n of [0, 10, 64, 65, 127, 128, 499, 500]) {
      const hit = cache.lookup('k', long.slice(0, n));
      expect(hit).toBeLessThanOrEqual(n);
      expect(hit % 64).toBe(0);
      expect(hit).toBe(Math.floor(n / 64) * 64);
    }
  });

  it('keys are kept apart (the caller composes API key and model)', () => {
    const prompt = tokens(200);
    cache.lookup('sk-a|svc-v4-flash', prompt);
    expect(cache.lookup('sk-b|svc-v4-flash', prompt)).toBe(0);
    expect(cache.lookup('sk-a|svc-v4-pro', prompt)).toBe(0);
    expect(cache.lookup('sk-a|svc-v4-flash', prompt)).toBe(192);
  });

  it('token boundaries matter, not just the joined text', () => {
    const a = Array.from({ length: 64 }, () => 'ab');
    const b = [...Array.from({ length: 62 }, () => 'ab'), 'aba', 'b']; // 64 tokens, the same text joined
    expect(b.join('')).toBe(a.join(''));
    cache.lookup('k', a);
    expect(cache.lookup('k', b)).toBe(0);
  });

  it('after 31 minutes of inactivity it misses again', () => {
    const prompt = tokens(200);
    cache.lookup('k', prompt);
    now += 31 * MINUTE;
    expect(cache.lookup('k', prompt)).toBe(0);
  });

  it('a hit at 20 minutes refreshes the lifetime', () => {
    const prompt = tokens(200);
    cache.lookup('k', prompt);
    now += 20 * MINUTE;
    expect(cache.lookup('k', prompt)).toBe(192);
    now += 20 * MINUTE; // 40 minutes after the first request, 20 after the hit
    expect(cache.lookup('k', prompt)).toBe(192);
    now += 31 * MINUTE;
    expect(cache.lookup('k', prompt)).toBe(0);
  });

  it('a shorter prompt refreshes only the prefixes it uses', () => {
    const long = tokens(256);
    cache.lookup('k', long);
    now += 20 * MINUTE;
    expect(cache.lookup('k', long.slice(0, 64))).toBe(64);
    now += 20 * MINUTE; // the 64-token prefix was used 20 minutes ago, the longer ones 40
    expect(cache.lookup('k', long)).toBe(64);
  });

  it('bounds memory: beyond maxEntries the least recently used prefix is evicted', () => {
    const bounded = new PromptCache(spec, () => now, { maxEntries: 3 });
    const a = tokens(128, 'a'); // 2 prefixes
    const b = tokens(128, 'b'); // 2 prefixes
    bounded.lookup('k', a);
    bounded.lookup('k', b); // evicts a's 64-token prefix
    expect(bounded.size).toBe(3);
    expect(bounded.lookup('k', a.slice(0, 64))).toBe(0);
    expect(new PromptCache(spec, () => now).size).toBe(0);
  });

  it('drops expired prefixes as it goes', () => {
    cache.lookup('k', tokens(640));
    expect(cache.size).toBe(10);
    now += 31 * MINUTE;
    cache.lookup('k', tokens(10));
    expect(cache.size).toBe(0);
  });

  it('refuses a spec without a usable minimum or lifetime, and a bad bound', () => {
    const broken = structuredClone(spec);
    (broken.context_caching.min_tokens as { value: unknown }).value = '64';
    expect(() => new PromptCache(broken, () => now)).toThrow(/min_tokens.value/);
    const noLifetime = structuredClone(spec);
    delete noLifetime.context_caching.lifetime;
    expect(() => new PromptCache(noLifetime, () => now)).toThrow(/lifetime.value_minutes/);
    expect(() => new PromptCache(spec, () => now, { maxEntries: 0 })).toThrow(/maxEntries/);
  });
});
