import type { Dispatcher } from 'undici';
import type { Semaphore } from '../semaphore.ts';
import { PRIORITY } from '../priority.ts';
import { contextOf } from './context.ts';
import { ForwardingHandler, failedController } from './forwardingHandler.ts';

/**
 * Never more than `semaphore.size` requests in flight through this dispatch. A request takes its
 * slot before it is dispatched (waiting in line if none is free) and gives it back when its
 * response has ended, failed or been aborted: a stream holds its slot until its last byte.
 * Composed outside `retry`, a request keeps its slot through its retry waits, so the harness does
 * not add load to a service that asked it to back off (a probe, and a request refused with 429,
 * stand aside instead: retry.ts says why); and when the limit came down meanwhile
 * (adaptiveLimit.ts), it gets back in line before it is asked again (`RequestContext.rejoin`).
 */
export function limit(semaphore: Semaphore, options: { adaptive?: boolean } = {}): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const context = contextOf(opts);
    // The load phase sets its own requests in flight: a limit here would hide the overload it looks for.
    if (context?.load === true) return dispatch(opts, handler);
    const guarded = new ReleasingHandler(handler, semaphore);
    // Only the adaptive limit's slot is given back and taken again around a retry's wait: a cap
    // shared by a run's targets (`runCap`) is held through it, as any slot was before.
    if (context && options.adaptive !== false) {
      context.rejoin = () => guarded.rejoin();
      context.standAside = (wait) => guarded.standAside(wait);
    }
    if (semaphore.tryAcquire()) {
      guarded.held();
      try {
        return dispatch(opts, guarded);
      } catch (err) {
        guarded.release();
        throw err;
      }
    }
    void semaphore.acquire(context?.priority ?? 0).then(() => {
      guarded.held();
      try {
        // What waited in line meets the breaker (composed inside) when its turn comes.
        dispatch(opts, guarded);
      } catch (err) {
        guarded.onResponseError(failedController(err as Error), err as Error);
      }
    });
    return true;
  };
}

class ReleasingHandler extends ForwardingHandler {
  readonly #semaphore: Semaphore;
  #holding = false;
  #released = false;

  constructor(next: Dispatcher.DispatchHandler, semaphore: Semaphore) {
    super(next);
    this.#semaphore = semaphore;
  }

  held(): void {
    if (this.#released) this.#semaphore.release(); // ended while in line: the slot goes straight back
    else this.#holding = true;
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    if (this.#holding) {
      this.#holding = false;
      this.#semaphore.release();
    }
  }

  /** Gives the slot back while `wait` runs, then waits in line for one (ahead of first attempts). */
  async standAside(wait: Promise<unknown>): Promise<void> {
    if (!this.#holding) {
      await wait;
      return;
    }
    this.#holding = false;
    this.#semaphore.release();
    await wait;
    await this.#semaphore.acquire(PRIORITY.rejoin);
    this.held();
  }

  /** Before a retry: when more slots are held than the limit now allows, give this one back and wait in line again. */
  async rejoin(): Promise<void> {
    if (!this.#holding || this.#semaphore.active <= this.#semaphore.size) return;
    this.#holding = false;
    this.#semaphore.release();
    await this.#semaphore.acquire(PRIORITY.rejoin);
    this.held();
  }

  override onRequestUpgrade(...args: Parameters<ForwardingHandler['onRequestUpgrade']>): void {
    this.release();
    super.onRequestUpgrade(...args);
  }

  override onResponseEnd(...args: Parameters<ForwardingHandler['onResponseEnd']>): void {
    this.release();
    super.onResponseEnd(...args);
  }

  override onResponseError(...args: Parameters<ForwardingHandler['onResponseError']>): void {
    this.release();
    super.onResponseError(...args);
  }
}
