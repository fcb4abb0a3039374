/**
 * The service's capacity (`emulate --capacity N`): requests in flight across every key, at most
 * `size`. Beyond it a request waits in a FIFO queue of at most `queueBound`; once the queue is full
 * it is refused (the caller answers 429). A freed slot goes to the longest waiter at once.
 */
export class Capacity {
  readonly size: number;
  readonly queueBound: number;
  #inFlight = 0;
  /** Waiters in arrival order: each is handed a release function when a slot frees. */
  readonly #queue: ((release: () => void) => void)[] = [];

  /** `size`: a positive integer; `queueBound`: a non-negative integer (0: no queue, refuse at once). */
  constructor(size: number, queueBound: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new Error(`Capacity: size must be a positive integer, got ${size}`);
    if (!Number.isSafeInteger(queueBound) || queueBound < 0) throw new Error(`Capacity: queueBound must be a non-negative integer, got ${queueBound}`);
    this.size = size;
    this.queueBound = queueBound;
  }

  /** Requests holding a slot now (at most `size`). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests waiting for a slot now (at most `queueBound`). */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * A slot: a promise of its release function (at once when one is free and nobody waits, else when
   * this request's turn comes), or undefined when the queue is full. When `signal` aborts while the
   * request waits, it leaves the queue and the promise resolves undefined. Calling a release function
   * more than once frees the slot only once.
   */
  acquire(signal?: AbortSignal): Promise<(() => void) | undefined> | undefined {
    if (this.#inFlight < this.size && this.#queue.length === 0) {
      this.#inFlight += 1;
      return Promise.resolve(this.#release());
    }
    if (this.#queue.length >= this.queueBound) return undefined;
    if (signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onAbort = () => {
        const at = this.#queue.indexOf(admit);
        if (at >= 0) this.#queue.splice(at, 1);
        resolve(undefined);
      };
      const admit = (release: () => void) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(release);
      };
      this.#queue.push(admit);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A slot's release: hands the slot to the first waiter, or frees it. */
  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      // The slot passes to the waiter as it is: in flight stays the same.
      if (next) next(this.#release());
      else this.#inFlight -= 1;
    };
  }
}
