import type { Dispatcher } from 'undici';
import { dateHeaderMs } from '#harness/core/clock.ts';
import type { RetryPolicy } from '#harness/spec/model.ts';
import { backoffMs, beyondCap, retryAfterMs, retryDelayMs } from '../retryDelayMs.ts';
import { contextOf, urlOf, type RequestContext } from './context.ts';
import { ForwardingHandler } from './forwardingHandler.ts';

type Controller = Dispatcher.DispatchController;

export interface RetryOptions {
  policy: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Each attempt, as it is dispatched. */
  onAttempt?: (info: { url: string; attempt: number }) => void;
  /** The run's allowance of 5xx retries; none: every retry the policy allows. */
  budget?: { take(status: number): boolean };
  /** Before each wait; `attempt` is the attempt that was answered with `status`. */
  onRetry?: (info: { url: string; status: number; attempt: number; waitMs: number }) => void;
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The instant an HTTP-date `Retry-After` is measured from: the answer's own Date (the server's
 * clock, whatever this machine's says, and a replayed answer's as recorded), else this machine's.
 */
function serverClockMs(date: string | undefined): number {
  return dateHeaderMs(date) ?? Date.now();
}

/** Server errors asked again once before they are taken as an answer (501 says what it is at once; 503 is the policy's). */
const CONFIRMED_5XX = new Set([500, 502, 504]);

/** How many 5xx answers a run retries in all: a persistent fault must not multiply the run time. */
export class RetryBudget {
  #left: number;
  constructor(retries: number) {
    this.#left = retries;
  }

  /** Whether one more retry of this status may be spent (429 is never counted: it is waited out). */
  take(status: number): boolean {
    if (status < 500) return true;
    if (this.#left <= 0) return false;
    this.#left -= 1;
    return true;
  }
}

/** A body larger than this is not drained before a retry: the connection is dropped instead. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

/**
 * Retries by the spec's policy (`retryDelayMs`): a response it retries is never seen downstream;
 * its body is drained off the connection, the wait is slept, and the same options (the body is a
 * string, so it can be sent again) are dispatched again. The last response is passed down as it
 * is, whatever its status. Network failures are not retried: they are the harness's evidence.
 *
 * A 5xx is never a verdict on the first try, nor retried without sense: a 500, 502 or 504 is asked
 * again once after the policy's first wait, even for a request sent without
 * retries (one that expects a refusal); the same status again is final, since a 5xx that repeats is
 * not transient. Another status goes on by the policy. 501 ("not implemented") is final at once.
 * 5xx retries draw on the run's budget, so an endpoint that answers 500 to everything still ends.
 */
export function retry(options: RetryOptions): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const context = contextOf(opts) ?? { retry: true, attempts: 0, attemptStartedAt: 0 };
    return new RetryHandler(dispatch, opts, handler, options, context).dispatchAttempt();
  };
}

class RetryHandler extends ForwardingHandler {
  readonly #dispatch: Dispatcher.Dispatch;
  readonly #opts: Dispatcher.DispatchOptions;
  readonly #options: RetryOptions;
  readonly #context: RequestContext;
  readonly #url: string;
  /** The one controller downstream ever sees; it follows the current attempt. */
  readonly #controller = new FollowingController();
  #started = false;
  /** Set while the current attempt's response is being drained for a retry; `retryAfter`: its wait is the answer's Retry-After. */
  #draining: { status: number; waitMs: number; retryAfter: boolean; bytes: number } | undefined;
  /** The status of the previous attempt's answer. */
  #previous: number | undefined;

  constructor(dispatch: Dispatcher.Dispatch, opts: Dispatcher.DispatchOptions, next: Dispatcher.DispatchHandler, options: RetryOptions, context: RequestContext) {
    super(next);
    this.#dispatch = dispatch;
    this.#opts = opts;
    this.#options = options;
    this.#context = context;
    this.#url = urlOf(opts);
  }

  dispatchAttempt(): boolean {
    this.#context.attempts += 1;
    this.#context.attemptStartedAt = performance.now();
    this.#options.onAttempt?.({ url: this.#url, attempt: this.#context.attempts });
    return this.#dispatch(this.#opts, this);
  }

  override onRequestStart(controller: Controller, context: unknown): void {
    this.#controller.target = controller;
    if (this.#started) return;
    this.#started = true;
    super.onRequestStart(this.#controller, context);
  }

  override onRequestUpgrade(...[, statusCode, headers, socket]: Parameters<ForwardingHandler['onRequestUpgrade']>): void {
    super.onRequestUpgrade(this.#controller, statusCode, headers, socket);
  }

  override onResponseStart(...[, statusCode, headers, statusMessage]: Parameters<ForwardingHandler['onResponseStart']>): void {
    let waitMs = this.#waitFor(statusCode, first(headers['retry-after']), serverClockMs(first(headers.date)));
    if (waitMs !== undefined && this.#options.budget && !this.#options.budget.take(statusCode)) waitMs = undefined;
    this.#previous = statusCode;
    if (waitMs === undefined) {
      super.onResponseStart(this.#controller, statusCode, headers, statusMessage);
      return;
    }
    this.#draining = { status: statusCode, waitMs, retryAfter: this.#options.policy.read_retry_after_first && retryAfterMs(first(headers['retry-after']), 0) !== undefined, bytes: 0 };
  }

  /** How long to wait before asking again after `status`, or undefined when it is final. */
  #waitFor(status: number, retryAfter: string | undefined, now: number): number | undefined {
    const { policy, random } = this.#options;
    const attempt = this.#context.attempts;
    if (this.#context.final === true) return undefined;
    // A wait beyond the description's cap is not waited out, nor asked again: the answer is final, a refusal that says what it asked.
    const beyond = beyondCap(policy, retryAfter, now);
    delete this.#context.beyondCap;
    if (beyond !== undefined) {
      this.#context.beyondCap = beyond;
      return undefined;
    }
    // 429 and 503 say "not now", never "no": they are waited out even for a request sent without retries.
    if (policy.statuses.includes(status)) return retryDelayMs(policy, attempt, status, retryAfter, random, now);
    if (!CONFIRMED_5XX.has(status) || this.#previous === status || attempt >= policy.max_attempts) return undefined;
    // The confirmation is asked for every request; more attempts only where the policy retries.
    return attempt === 1 || this.#context.retry ? backoffMs(policy, attempt, status, retryAfter, random, now) : undefined;
  }

  override onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.#draining === undefined) {
      super.onResponseData(this.#controller, chunk);
      return;
    }
    this.#draining.bytes += chunk.length;
    if (this.#draining.bytes > DRAIN_LIMIT_BYTES) controller.abort(new Error('retry: body too large to drain'));
  }

  override onResponseEnd(...[, trailers]: Parameters<ForwardingHandler['onResponseEnd']>): void {
    if (this.#draining === undefined) super.onResponseEnd(this.#controller, trailers);
    else this.#retryAfterWait();
  }

  override onResponseError(...[, error]: Parameters<ForwardingHandler['onResponseError']>): void {
    // A drained body that breaks off does not matter: the status was all that was needed.
    if (this.#draining === undefined) super.onResponseError(this.#controller, error);
    else this.#retryAfterWait();
  }

  #retryAfterWait(): void {
    const { status, waitMs, retryAfter } = this.#draining!;
    this.#draining = undefined;
    this.#options.onRetry?.({ url: this.#url, status, attempt: this.#context.attempts, waitMs });
    // What the request waits on now, for the run's progress (breaker.ts `waiting`).
    this.#context.waiting = { status, retryAfter, since: performance.now(), until: performance.now() + waitMs };
    let ended = false;
    const fail = (err: unknown): void => {
      delete this.#context.waiting;
      if (ended) return;
      ended = true;
      super.onResponseError(this.#controller, err instanceof Error ? err : new Error(String(err)));
    };
    // Downstream giving up during the wait (a stop, a route declared silent) ends it now, not after it.
    this.#controller.onAbort = fail;
    const wait = this.#options.sleep(waitMs);
    // A probe (servedGate.ts) stands aside while it waits: the probes of every route wait out their
    // "not now" side by side, so an endpoint answering 503 everywhere costs one backoff, not one per
    // route in turn. So does a request refused with 429: it holds nothing at the endpoint, the limit
    // was halved for it (adaptiveLimit.ts), and a Retry-After to the next minute (LiteLLM's) would
    // otherwise keep a slot empty that long. Any other request keeps its slot (no load added to a
    // service that asked for a pause) and, when the limit came down meanwhile, gets back in line.
    const standsAside = this.#context.probe === true || status === 429;
    const resumed = standsAside && this.#context.standAside ? this.#context.standAside(wait) : wait.then(() => this.#context.rejoin?.());
    void resumed
      .then(() => {
        this.#controller.onAbort = undefined;
        delete this.#context.waiting;
        if (ended) return;
        const reason = this.#controller.abortReason;
        if (reason !== undefined) return fail(reason);
        try {
          this.dispatchAttempt();
        } catch (err) {
          fail(err);
        }
      }, fail);
  }
}

/**
 * Stands for the current attempt's controller, so downstream can pause, resume and abort the
 * attempt that is actually running (as undici's own RetryHandler does). A pause carries over to
 * the next attempt.
 */
class FollowingController implements Controller {
  #target: Controller | undefined;
  #paused = false;
  /** Set once downstream aborts: no attempt is dispatched after it. */
  abortReason: Error | undefined;
  /** Set while a retry waits: an abort then ends the request at once. */
  onAbort: ((reason: Error) => void) | undefined;

  set target(target: Controller) {
    this.#target = target;
    if (this.#paused) target.pause();
  }

  get aborted(): boolean {
    return this.abortReason !== undefined || (this.#target?.aborted ?? false);
  }

  get paused(): boolean {
    return this.#paused || (this.#target?.paused ?? false);
  }

  get reason(): Error | null {
    return this.abortReason ?? this.#target?.reason ?? null;
  }

  abort(reason: Error): void {
    this.abortReason ??= reason;
    if (this.onAbort) return this.onAbort(reason);
    this.#target?.abort(reason);
  }

  pause(): void {
    this.#paused = true;
    this.#target?.pause();
  }

  resume(): void {
    this.#paused = false;
    this.#target?.resume();
  }
}
