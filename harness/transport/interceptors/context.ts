import type { Dispatcher } from 'undici';
import type { BeyondCap } from '../retryDelayMs.ts';

/**
 * What one `send()` shares with the interceptors it passes through. It rides on the dispatch
 * options under a symbol: undici copies options with object spread, which keeps symbol keys, and
 * a dispatch that carries none (a client library handed the transport's dispatcher) gets defaults.
 */
export interface RequestContext {
  /** false: the response is final whatever its status (default true). */
  retry: boolean;
  /** The first answer is final, whatever its status: not even a 429 or 503 is waited out (a gateway check seeing what the gateway passed on). */
  final?: boolean;
  /** Attempts dispatched so far, retries included. */
  attempts: number;
  /** performance.now() when the current attempt was dispatched. */
  attemptStartedAt: number;
  /** The route the request goes to (method, path, streamed or not): the breaker's key (breaker.ts). */
  route?: string;
  /** The smallest valid request to its route (servedGate.ts): no answer to it declares the route at once. */
  probe?: boolean;
  /** Set by `retry` while it waits before asking again: after which status, whether its Retry-After set the wait, and from when until when (performance.now()). */
  waiting?: { status: number; retryAfter: boolean; since: number; until: number };
  /** Set by `retry` when the last answer's Retry-After asked for more than the back-off cap: it was not waited out. */
  beyondCap?: BeyondCap;
  /** This exchange's body deadline, from its headers (deadline.ts). */
  deadlineMs?: number;
  /** Set by `limit`: before a retry, wait in line again if the limit came down below the slots held. */
  rejoin?: () => Promise<void>;
  /** Set by `limit`: gives the slot back for `wait` and waits in line for one after it (a probe waiting out a "not now"). */
  standAside?: (wait: Promise<unknown>) => Promise<void>;
  /** Its place in line for a slot (limit.ts), on the scale of priority.ts. */
  priority?: number;
  /** The request carries the run's key (keyRefusal.ts), for refusing it still in line once the key was refused. */
  keyed?: boolean;
  /**
   * A request of the load phase (`run --load`): it holds no slot of the limit (the phase keeps its
   * own requests in flight), moves no adaptive limit, is never retried, and its silence is the load
   * checks' to judge, not the breaker's.
   */
  load?: boolean;
}

export const kRequestContext: unique symbol = Symbol('svc-conformance.transport.request');

export type ContextualOptions = Dispatcher.DispatchOptions & { [kRequestContext]?: RequestContext };

export function contextOf(opts: Dispatcher.DispatchOptions): RequestContext | undefined {
  return (opts as ContextualOptions)[kRequestContext];
}

/** The URL a dispatch addresses. */
export function urlOf(opts: Dispatcher.DispatchOptions): string {
  return new URL(opts.path, opts.origin ?? 'http://unknown').href;
}
