/**
 * A counting semaphore, first come first served, that remembers its peak. A released slot goes
 * straight to the longest waiter, so a burst of new arrivals cannot overtake it.
 */
export class Semaphore {
  readonly size: number;
  #active = 0;
  #peak = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`Semaphore size must be an integer >= 1, got ${size}`);
    this.size = size;
  }

  /** Slots held right now. */
  get active(): number {
    return this.#active;
  }

  /** The most slots ever held at once. */
  get peak(): number {
    return this.#peak;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Takes a slot if one is free, without waiting. */
  tryAcquire(): boolean {
    if (this.#active >= this.size || this.#waiting.length > 0) return false;
    this.#take();
    return true;
  }

  /** Resolves once a slot is held. Every acquire must be paired with exactly one release. */
  acquire(): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    if (this.#active === 0) throw new Error('Semaphore released more often than acquired');
    const next = this.#waiting.shift();
    if (next) next(); // the slot passes on: #active is unchanged
    else this.#active -= 1;
  }

  #take(): void {
    this.#active += 1;
    if (this.#active > this.#peak) this.#peak = this.#active;
  }
}
