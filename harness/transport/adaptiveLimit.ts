/**
 * How many requests the run keeps in flight: the one place that decides it. Without `--concurrency`
 * the limit adapts to the endpoint, as TCP's congestion window and Netflix's concurrency-limits do:
 * it starts at `initial`, doubles each round trip while answers come back after a wait worth
 * sharing (WAITING_MS) and without a back-off (slow start), then
 * grows by one per round trip (additive increase), and is halved at once on a 429 or 503 or an
 * answer that took far longer than the run's fastest (multiplicative decrease), never above `max`.
 * A rate-limit header saying fewer requests are left than the limit lowers it to what is left.
 * With `--concurrency N` the limit is N and never moves.
 */

export interface ConcurrencyPolicy {
  /** The limit the run starts at. */
  initial: number;
  /** The most it may grow to; equal to `initial`: a fixed limit. */
  max: number;
}

/** A run without `--concurrency`: a start that suits a service nobody measured, and a cap that keeps a shared endpoint usable. */
export const ADAPTIVE: ConcurrencyPolicy = { initial: 4, max: 16 };

/** `--concurrency N` fixes the limit; without it the limit adapts (ADAPTIVE). */
export const concurrencyPolicyOf = (fixed: number | undefined): ConcurrencyPolicy => (fixed === undefined ? ADAPTIVE : { initial: fixed, max: fixed });

/** Statuses that say "too many at once" (429) or "not now" (503): the limit comes down. */
const BACK_OFF = new Set([429, 503]);
/** On a back-off signal the limit is halved, as TCP does on loss. */
const DECREASE = 0.5;
/**
 * Latency is compared with the fastest answer of the same route (a model list is not a completion).
 * Slower than QUEUE_FACTOR times it, plus QUEUE_MARGIN_MS, and the answer waited in a queue: the
 * limit holds. Slower than SLOW_FACTOR times it, and by more than SLOW_MARGIN_MS, and the endpoint
 * is overloaded: the limit comes down.
 */
const QUEUE_FACTOR = 2;
const QUEUE_MARGIN_MS = 10;
const SLOW_FACTOR = 4;
const SLOW_MARGIN_MS = 2_000;
/**
 * Answers faster than this do not grow the limit: the run is then bound by the harness's own work,
 * not by waiting, and more requests at once would only load the endpoint (on loopback, into its 429s).
 */
const WAITING_MS = 100;
/** Headers that say how many requests the endpoint has left (OpenAI's, IETF draft's, and the common unprefixed one). */
const REMAINING_HEADERS = ['x-ratelimit-remaining-requests', 'ratelimit-remaining', 'x-ratelimit-remaining'];

/** One attempt's answer, as the limit sees it. */
export interface Answered {
  status: number;
  /** From dispatch to the response headers. */
  latencyMs: number;
  /** The route it went to (the breaker's key): latency is judged against the same route's. */
  route?: string;
  /** Attempts on the wire when this one was dispatched, itself included. */
  inFlight: number;
  /** Attempts on the wire when its answer came, itself included (default: `inFlight`). */
  busy?: number;
  /** The limit's epoch when this attempt was dispatched (`dispatched()`). */
  epoch: number;
  /** Response headers, names lowercase. */
  headers: Record<string, string | string[] | undefined>;
}

export interface ConcurrencyStats {
  initial: number;
  max: number;
  adaptive: boolean;
  /** The limit when asked. */
  limit: number;
  /**
   * The most attempts in flight at once that the endpoint took: the highest count at which an
   * attempt was answered without a back-off, below the lowest at which one was turned away.
   */
  reached: number;
  /** Times the limit came down. */
  decreases: number;
}

export class AdaptiveLimit {
  readonly policy: ConcurrencyPolicy;
  #limit: number;
  /** Slow start ends at the first back-off (as TCP's ssthresh). */
  #slowStart = true;
  /** Additive increase: a whole slot is added once a limit's worth of answers came back. */
  #credit = 0;
  /** The fastest answer seen per route. */
  readonly #fastestMs = new Map<string, number>();
  /** Bumped by each decrease: answers to attempts dispatched before it do not bring the limit down again. */
  #epoch = 0;
  #acceptedPeak = 0;
  #refusedLowest = Number.POSITIVE_INFINITY;
  #decreases = 0;
  readonly #onChange: (limit: number) => void;

  constructor(policy: ConcurrencyPolicy, onChange: (limit: number) => void = () => undefined) {
    if (!Number.isInteger(policy.initial) || policy.initial < 1 || !Number.isInteger(policy.max) || policy.max < policy.initial) {
      throw new RangeError(`concurrency: initial must be an integer >= 1 and max an integer >= initial, got ${policy.initial} and ${policy.max}`);
    }
    this.policy = policy;
    this.#limit = policy.initial;
    this.#onChange = onChange;
  }

  get limit(): number {
    return this.#limit;
  }

  get adaptive(): boolean {
    return this.policy.max > this.policy.initial;
  }

  /** The epoch an attempt is dispatched in (hand it back with its answer). */
  dispatched(): number {
    return this.#epoch;
  }

  answered(a: Answered): void {
    const backOff = BACK_OFF.has(a.status);
    if (backOff) this.#refusedLowest = Math.min(this.#refusedLowest, a.inFlight);
    else this.#acceptedPeak = Math.max(this.#acceptedPeak, a.inFlight);
    if (!this.adaptive) return;
    const remaining = remainingOf(a.headers);
    if (remaining !== undefined && remaining < this.limit) this.#decrease(Math.max(1, remaining), a.epoch);
    if (backOff) return this.#decrease(this.#limit * DECREASE, a.epoch);
    const route = a.route ?? '';
    const fastest = this.#fastestMs.get(route) ?? a.latencyMs;
    // A refusal comes back at once: it says nothing of how long the route takes to serve.
    if (a.status < 400) this.#fastestMs.set(route, Math.min(fastest, a.latencyMs));
    if (a.latencyMs > fastest * SLOW_FACTOR && a.latencyMs - fastest > SLOW_MARGIN_MS) return this.#decrease(this.#limit * DECREASE, a.epoch);
    const queued = a.latencyMs > fastest * QUEUE_FACTOR + QUEUE_MARGIN_MS;
    // Grown only while in use (at least half of it, as Netflix's AIMD): a limit the run never
    // came near proves nothing about the endpoint.
    if (queued || Math.max(a.inFlight, a.busy ?? 0) * 2 < this.limit || a.latencyMs < WAITING_MS || (remaining !== undefined && remaining <= this.limit)) return;
    if (this.#slowStart) this.#set(this.#limit + 1);
    else {
      this.#credit += 1 / this.limit;
      if (this.#credit >= 1) {
        this.#credit = 0;
        this.#set(this.#limit + 1);
      }
    }
  }

  /** A request that got no answer in time: the endpoint may be overwhelmed. */
  silent(epoch: number): void {
    if (this.adaptive) this.#decrease(this.#limit * DECREASE, epoch);
  }

  stats(): ConcurrencyStats {
    const reached = Math.min(this.#acceptedPeak, this.#refusedLowest - 1);
    return { initial: this.policy.initial, max: this.policy.max, adaptive: this.adaptive, limit: this.limit, reached: Math.max(0, reached), decreases: this.#decreases };
  }

  #decrease(to: number, epoch: number): void {
    // One decrease per round trip: a burst of 429s to attempts sent together is one signal.
    if (epoch < this.#epoch) return;
    this.#epoch += 1;
    this.#decreases += 1;
    this.#slowStart = false;
    this.#credit = 0;
    this.#set(to);
  }

  /** The limit is a whole number of requests: it grows by one and comes down to a whole share. */
  #set(limit: number): void {
    const next = Math.min(this.policy.max, Math.max(1, Math.floor(limit)));
    if (next === this.#limit) return;
    this.#limit = next;
    this.#onChange(next);
  }
}

/** What a rate-limit header says is left, when it says a whole number. */
function remainingOf(headers: Answered['headers']): number | undefined {
  for (const name of REMAINING_HEADERS) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined && /^\s*\d+\s*$/.test(value)) return Number(value);
  }
  return undefined;
}
