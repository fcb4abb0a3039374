import { createHash, type Hash } from 'node:crypto';
import type { Spec } from '#harness/spec/model.ts';

/** Default bound on stored prefixes; see PromptCache. */
export const DEFAULT_MAX_ENTRIES = 10_000;

export interface PromptCacheOptions {
  /** Most prefixes kept at once, over all keys (default 10,000); the least recently used go first. */
  maxEntries?: number;
}

/**
 * Context caching as the description states it: automatic, matching repeated prompt prefixes, never
 * for content under `context_caching.min_tokens.value` tokens, kept for about
 * `context_caching.lifetime.value_minutes` minutes of inactivity.
 *
 * Hits are counted in whole units of `min_tokens` (the description states no unit; real bodies show
 * multiples of 64, the same number as the minimum). After each lookup the prompt's prefix at every
 * unit boundary is stored, so a later prompt sharing any whole-unit prefix hits that prefix.
 *
 * A prefix is stored as a SHA-256 of its tokens (never the tokens), keyed by the key string the
 * caller composes (API key and model). Memory is bounded: at most `maxEntries` prefixes (default
 * 10,000) over all keys; storing one more evicts the one least recently stored or hit, and expired
 * prefixes are dropped as they are met. A prompt with more boundaries than the bound keeps only its
 * longest prefixes.
 */
export class PromptCache {
  readonly #unit: number;
  readonly #lifetimeMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;
  /** `${key}\0${sha256 hex}` -> last use (ms). Map order is the order of last use, oldest first. */
  readonly #entries = new Map<string, number>();

  constructor(spec: Spec, clock: () => number, options: PromptCacheOptions = {}) {
    const caching = spec.context_caching as { min_tokens?: { value?: unknown }; lifetime?: { value_minutes?: unknown } };
    const unit = caching.min_tokens?.value;
    const minutes = caching.lifetime?.value_minutes;
    if (typeof unit !== 'number' || !Number.isSafeInteger(unit) || unit <= 0) {
      throw new Error(`promptCache: spec.context_caching.min_tokens.value must be a positive integer, got ${JSON.stringify(unit)}`);
    }
    if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes <= 0) {
      throw new Error(`promptCache: spec.context_caching.lifetime.value_minutes must be a positive number, got ${JSON.stringify(minutes)}`);
    }
    const max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new Error(`promptCache: maxEntries must be a positive integer, got ${max}`);
    this.#unit = unit;
    this.#lifetimeMs = minutes * 60_000;
    this.#maxEntries = max;
    this.#clock = clock;
  }

  /** Prefixes currently held (expired ones not yet swept included). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Cache-hit tokens of this prompt: the longest whole-unit prefix stored for `key` by an earlier
   * request and used within the lifetime. Then stores (or refreshes) this prompt's prefixes at every
   * unit boundary. A prompt under one unit is never cached and hits 0.
   */
  lookup(key: string, tokens: readonly string[]): number {
    const now = this.#clock();
    this.#sweep(now);
    const units = Math.floor(tokens.length / this.#unit);
    if (units === 0) return 0;

    const ids = this.#prefixIds(key, tokens, units);
    let hitUnits = 0;
    for (let u = units; u >= 1; u--) {
      const id = ids[u - 1]!;
      const last = this.#entries.get(id);
      if (last === undefined) continue;
      if (this.#alive(last, now)) {
        hitUnits = u;
        break;
      }
      this.#entries.delete(id);
    }

    for (const id of ids) {
      this.#entries.delete(id); // re-insert at the end: Map order follows last use
      this.#entries.set(id, now);
    }
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string; // size > 0, so a key exists
      this.#entries.delete(oldest);
    }
    return hitUnits * this.#unit;
  }

  /** `lookup`, with the rest of the prompt as misses: hit + miss = tokens.length. */
  split(key: string, tokens: readonly string[]): { hit: number; miss: number } {
    const hit = this.lookup(key, tokens);
    return { hit, miss: tokens.length - hit };
  }

  #alive(lastUse: number, now: number): boolean {
    return now - lastUse < this.#lifetimeMs;
  }

  /** Drops expired prefixes from the old end of the map (stops at the first live one). */
  #sweep(now: number): void {
    for (const [id, last] of this.#entries) {
      if (this.#alive(last, now)) break;
      this.#entries.delete(id);
    }
  }

  /** Ids of the prefixes of 1..units whole units: one running hash, copied at each boundary. */
  #prefixIds(key: string, tokens: readonly string[], units: number): string[] {
    const hash: Hash = createHash('sha256');
    const ids: string[] = [];
    for (let u = 0; u < units; u++) {
      for (let i = u * this.#unit; i < (u + 1) * this.#unit; i++) {
        const token = tokens[i]!;
        hash.update(`${token.length}:${token}`); // length-prefixed, so token boundaries stay unambiguous
      }
      ids.push(`${key}\0${hash.copy().digest('hex')}`);
    }
    return ids;
  }
}
