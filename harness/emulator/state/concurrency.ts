/**
 * Requests in flight per API key, capped at `limitPerKey`. The description publishes no fixed limit
 * ("dynamic, concurrency based"); the emulator's limit is whatever its caller configures.
 */
export class ConcurrencyLimiter {
  readonly #limit: number;
  /** key -> requests in flight; a key with none is removed, so idle keys cost nothing. */
  readonly #inFlight = new Map<string, number>();

  /** `limitPerKey`: a non-negative integer (0 refuses every request). */
  constructor(limitPerKey: number) {
    if (!Number.isSafeInteger(limitPerKey) || limitPerKey < 0) {
      throw new Error(`ConcurrencyLimiter: limitPerKey must be a non-negative integer, got ${limitPerKey}`);
    }
    this.#limit = limitPerKey;
  }

  /** Requests of `key` now in flight. */
  inFlight(key: string): number {
    return this.#inFlight.get(key) ?? 0;
  }

  /**
   * Takes a slot for `key`: a release function, or undefined when `limitPerKey` requests of that key
   * are already in flight. Calling the release function more than once frees the slot only once.
   */
  tryAcquire(key: string): (() => void) | undefined {
    const current = this.inFlight(key);
    if (current >= this.#limit) return undefined;
    this.#inFlight.set(key, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.inFlight(key) - 1;
      if (left > 0) this.#inFlight.set(key, left);
      else this.#inFlight.delete(key);
    };
  }
}
