/**
 * A counting semaphore, first come first served within a priority, that remembers its peak. A
 * released slot goes straight to the longest waiter, so a burst of new arrivals cannot overtake it.
 * Its size may change while slots are held (adaptiveLimit.ts): a smaller size takes effect as slots
 * are released.
 */
export class Semaphore {
  #size: number;
  #active = 0;
  #peak = 0;
  readonly #waiting: { priority: number; resolve: () => void }[] = [];

  constructor(size: number) {
    this.#size = checkedSize(size);
  }

  get size(): number {
    return this.#size;
  }

  /** A new size: waiters get the slots a larger one frees at once; a smaller one holds new ones back until enough are released. */
  resize(size: number): void {
    this.#size = checkedSize(size);
    while (this.#active < this.#size && this.#waiting.length > 0) {
      this.#take();
      this.#waiting.shift()!.resolve();
    }
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
    if (this.#active >= this.#size || this.#waiting.length > 0) return false;
    this.#take();
    return true;
  }

  /**
   * Resolves once a slot is held. Every acquire must be paired with exactly one release. A higher
   * `priority` goes ahead of lower ones in line (the next link of a long chain before a chain of
   * one); equal priorities are served in their order.
   */
  acquire(priority = 0): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise((resolve) => {
      const at = this.#waiting.findIndex((w) => w.priority < priority);
      const waiter = { priority, resolve };
      if (at < 0) this.#waiting.push(waiter);
      else this.#waiting.splice(at, 0, waiter);
    });
  }

  release(): void {
    if (this.#active === 0) throw new Error('Semaphore released more often than acquired');
    // The slot passes on (#active unchanged), unless the size came down below what is held.
    const next = this.#active <= this.#size ? this.#waiting.shift() : undefined;
    if (next) next.resolve();
    else this.#active -= 1;
  }

  #take(): void {
    this.#active += 1;
    if (this.#active > this.#peak) this.#peak = this.#active;
  }
}

function checkedSize(size: number): number {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`Semaphore size must be an integer >= 1, got ${size}`);
  return size;
}
