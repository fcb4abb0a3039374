/** A body chunk and when it came off the connection. */
export interface Chunk {
  bytes: Buffer;
  /** Milliseconds since the response headers arrived. */
  at: number;
}

/** The body stream as the pump needs it (undici's BodyReadable is one). */
export interface BodySource extends AsyncIterable<Buffer> {
  destroy(error?: Error): unknown;
}

/**
 * Reads a response body off the connection as it arrives, whether or not anyone reads it yet, and
 * stamps each chunk with its arrival time: timings are the network's, not the reader's. A body
 * nobody reads still ends on the wire, so its request gives back its concurrency slot; the pump
 * stops pulling (and TCP pushes back) only once `pauseBytes` wait unread. If nobody has started
 * reading by then, nobody is coming (a check that looked at the status only): the connection is
 * dropped (`dropped`) so a huge or endless body cannot hold the slot for ever, and the chunks
 * already queued stay readable.
 *
 * One reader: `read()` yields the chunks in order, ends when the body ends and throws the error
 * that broke it, after every chunk that arrived before.
 */
export class BodyPump {
  readonly #source: BodySource;
  readonly #startedAt: number;
  readonly #pauseBytes: number;
  readonly #chunks: Chunk[] = [];
  #queuedBytes = 0;
  #state: 'open' | 'ended' | 'failed' | 'cancelled' | 'dropped' = 'open';
  #reading = false;
  #error: unknown;
  /** Milliseconds since the headers when the body ended, failed or was cancelled. */
  #settledAt: number | undefined;
  #wakeReader: (() => void) | undefined;
  #wakePump: (() => void) | undefined;

  /** @param startedAt performance.now() when the response headers arrived */
  constructor(source: BodySource, startedAt: number, pauseBytes: number) {
    this.#source = source;
    this.#startedAt = startedAt;
    this.#pauseBytes = pauseBytes;
    void this.#run();
  }

  /** Milliseconds from the headers to the end of the body; undefined while it is still arriving. */
  get settledAt(): number | undefined {
    return this.#settledAt;
  }

  get done(): boolean {
    return this.#state !== 'open';
  }

  /** True when the body was dropped unread past `pauseBytes`: `read()` ends after the queued chunks without the rest. */
  get dropped(): boolean {
    return this.#state === 'dropped';
  }

  async *read(): AsyncGenerator<Chunk, void, undefined> {
    this.#reading = true;
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk !== undefined) {
        this.#queuedBytes -= chunk.bytes.length;
        this.#wake('pump');
        yield chunk;
        continue;
      }
      if (this.#state === 'failed') throw this.#error;
      if (this.#state !== 'open') return;
      await new Promise<void>((resolve) => (this.#wakeReader = resolve));
    }
  }

  /** Stops reading and drops the connection (undici aborts the request). Chunks not read are dropped. */
  cancel(): void {
    if (this.#state !== 'open') return;
    this.#settle('cancelled');
    this.#chunks.length = 0;
    this.#queuedBytes = 0;
    this.#source.destroy();
  }

  async #run(): Promise<void> {
    try {
      for await (const bytes of this.#source) {
        if (this.#state !== 'open') return;
        this.#chunks.push({ bytes, at: this.#elapsed() });
        this.#queuedBytes += bytes.length;
        this.#wake('reader');
        if (this.#queuedBytes > this.#pauseBytes && !this.#reading) {
          this.#settle('dropped');
          this.#source.destroy();
          return;
        }
        while (this.#queuedBytes > this.#pauseBytes && this.#state === 'open') {
          await new Promise<void>((resolve) => (this.#wakePump = resolve));
        }
      }
      this.#settle('ended');
    } catch (err) {
      if (this.#state !== 'open') return;
      this.#error = err;
      this.#settle('failed');
    }
  }

  #settle(state: 'ended' | 'failed' | 'cancelled' | 'dropped'): void {
    if (this.#state !== 'open') return;
    this.#state = state;
    this.#settledAt = this.#elapsed();
    this.#wake('reader');
    this.#wake('pump');
  }

  #wake(who: 'reader' | 'pump'): void {
    const wake = who === 'reader' ? this.#wakeReader : this.#wakePump;
    if (who === 'reader') this.#wakeReader = undefined;
    else this.#wakePump = undefined;
    wake?.();
  }

  #elapsed(): number {
    return Math.round((performance.now() - this.#startedAt) * 10) / 10;
  }
}
