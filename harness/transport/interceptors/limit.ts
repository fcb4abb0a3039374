import type { Dispatcher } from 'undici';
import type { Semaphore } from '../semaphore.ts';
import { contextOf } from './context.ts';
import { ForwardingHandler, failedController } from './forwardingHandler.ts';

/**
 * Never more than `semaphore.size` requests in flight through this dispatch. A request takes its
 * slot before it is dispatched (waiting in line if none is free) and gives it back when its
 * response has ended, failed or been aborted: a stream holds its slot until its last byte.
 * Composed outside `retry`, a request keeps its slot through its retry waits, so the harness does
 * not add load to a service that asked it to back off.
 */
export function limit(semaphore: Semaphore): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const guarded = new ReleasingHandler(handler, () => semaphore.release());
    if (semaphore.tryAcquire()) {
      try {
        return dispatch(opts, guarded);
      } catch (err) {
        guarded.release();
        throw err;
      }
    }
    void semaphore.acquire(contextOf(opts)?.priority ?? 0).then(() => {
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
  readonly #release: () => void;
  #released = false;

  constructor(next: Dispatcher.DispatchHandler, release: () => void) {
    super(next);
    this.#release = release;
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#release();
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
