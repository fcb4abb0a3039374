/**
 * How many requests the run keeps in flight: the one place that decides it. Without `--concurrency`
 * the limit finds the endpoint's capacity, as TCP's congestion window and Netflix's
 * concurrency-limits (Gradient2, Vegas) do:
 * - it starts at `initial` and doubles each round trip while answers come back after a wait worth
 *   sharing (WAITING_MS) and as fast as the route answers at rest (slow start), then grows by one
 *   per round trip (additive increase), never above `max` (`--max-in-flight`);
 * - it comes down when the endpoint says so: halved at once on a 429 or 503 or silence
 *   (multiplicative decrease), and to a share of itself when the route's recent answers (a short
 *   window) take longer than its usual ones (a long window) by more than TOLERANCE: Gradient2's
 *   gradient, which sees a queue building before any refusal;
 * - a rate-limit header saying fewer requests are left than the limit lowers it to what is left.
 * Only answers served (below 400) say how long the route takes: a refusal says nothing of it, and a
 * gateway that retries refusals upstream answers them slowly without being loaded. A refusal that
 * took a wait worth sharing still says the run is waiting, so it grows the limit as an answer does.
 * Once the endpoint answered 429 or 503 at some count in flight, the limit never grows to it again:
 * it said how many it takes (LiteLLM's parallel limit answers each excess with a minute's Retry-After).
 * Every change is kept with its reason (`LimitChange`), so the reports say where the limit went and why.
 * With `--concurrency N` the limit is N and never moves.
 */

import type { LimitChange, LimitReason } from '#harness/core/limitChange.ts';

export interface ConcurrencyPolicy {
  /** The limit the run starts at. */
  initial: number;
  /** The most it may grow to; equal to `initial`: a fixed limit. */
  max: number;
}

/**
 * A run without `--concurrency`: a start that suits a service nobody measured, and a cap that keeps
 * a shared endpoint usable (`--max-in-flight` lowers it). The description names no per-key cap and
 * says limits are dynamic, so the cap is the harness's own courtesy, not the service's bound.
 */
export const ADAPTIVE: ConcurrencyPolicy = { initial: 4, max: 64 };

/**
 * `--concurrency N` fixes the limit; without it the limit adapts (ADAPTIVE), up to `cap`
 * (`--max-in-flight`) when that is lower.
 */
export const concurrencyPolicyOf = (fixed: number | undefined, cap?: number): ConcurrencyPolicy => {
  if (fixed !== undefined) return { initial: fixed, max: fixed };
  const max = Math.min(ADAPTIVE.max, cap ?? ADAPTIVE.max);
  return { initial: Math.min(ADAPTIVE.initial, max), max };
};

/** Statuses that say "too many at once" (429) or "not now" (503): the limit comes down. */
const BACK_OFF = new Set([429, 503]);
/** On a back-off signal the limit is halved, as TCP does on loss. */
const DECREASE = 0.5;
/**
 * Latency is compared with the fastest answer of the same route (a model list is not a completion).
 * Slower than QUEUE_FACTOR times it, plus QUEUE_MARGIN_MS, and the answer waited in a queue: the
 * limit does not grow. Slower than SLOW_FACTOR times it, and by more than SLOW_MARGIN_MS, and the
 * endpoint is overloaded: the limit is halved.
 */
const QUEUE_FACTOR = 2;
const QUEUE_MARGIN_MS = 10;
const SLOW_FACTOR = 4;
const SLOW_MARGIN_MS = 2_000;
/**
 * Gradient2's comparison, per route: the short window's latency above TOLERANCE times the long
 * window's, on an answer that queued, and the limit comes down by their ratio (never below half).
 * The windows are exponential averages over about SHORT_WINDOW and LONG_WINDOW answers; when the
 * long one is far above the short one (latency fell back) it decays faster, as Gradient2's does.
 */
const TOLERANCE = 1.5;
const SHORT_WINDOW = 8;
const LONG_WINDOW = 64;
/**
 * Answers faster than this do not grow the limit: the run is then bound by the harness's own work,
 * not by waiting, and more requests at once would only load the endpoint (on loopback, into its 429s).
 */
const WAITING_MS = 100;
/** Headers that say how many requests the endpoint has left (OpenAI's, IETF draft's, and the common unprefixed one). */
const REMAINING_HEADERS = ['x-ratelimit-remaining-requests', 'ratelimit-remaining', 'x-ratelimit-remaining'];
/** Changes kept for the reports: the first ones, then a count of the rest (a flapping limit would otherwise fill them). */
const MAX_CHANGES = 40;

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
  /** The highest the limit went. */
  highest: number;
  /**
   * The most attempts in flight at once that the endpoint took: the highest count at which an
   * attempt was answered without a back-off, below the lowest at which one was turned away.
   */
  reached: number;
  /** Times the limit came down. */
  decreases: number;
  /** Where the limit went and why, in order (the first MAX_CHANGES). */
  changes: LimitChange[];
  /** Changes past MAX_CHANGES, not kept. */
  changesOmitted: number;
}

/** A route's latency as the limit keeps it: its fastest answer and the two windows. */
interface RouteLatency {
  fastestMs: number;
  shortMs: number;
  longMs: number;
}

export class AdaptiveLimit {
  readonly policy: ConcurrencyPolicy;
  #limit: number;
  #highest: number;
  /** Slow start ends at the first decrease (as TCP's ssthresh). */
  #slowStart = true;
  /** Additive increase: a whole slot is added once a limit's worth of answers came back. */
  #credit = 0;
  readonly #routes = new Map<string, RouteLatency>();
  /** Bumped by each decrease: answers to attempts dispatched before it do not bring the limit down again. */
  #epoch = 0;
  #acceptedPeak = 0;
  #refusedLowest = Number.POSITIVE_INFINITY;
  #decreases = 0;
  readonly #changes: LimitChange[] = [];
  #changesOmitted = 0;
  readonly #onChange: (limit: number) => void;
  readonly #now: () => number;
  readonly #born: number;

  constructor(policy: ConcurrencyPolicy, onChange: (limit: number) => void = () => undefined, now: () => number = () => performance.now()) {
    if (!Number.isInteger(policy.initial) || policy.initial < 1 || !Number.isInteger(policy.max) || policy.max < policy.initial) {
      throw new RangeError(`concurrency: initial must be an integer >= 1 and max an integer >= initial, got ${policy.initial} and ${policy.max}`);
    }
    this.policy = policy;
    this.#limit = policy.initial;
    this.#highest = policy.initial;
    this.#onChange = onChange;
    this.#now = now;
    this.#born = now();
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
    if (remaining !== undefined && remaining < this.limit) this.#decrease(Math.max(1, remaining), a.epoch, { kind: 'remaining', remaining });
    if (backOff) return this.#decrease(this.#limit * DECREASE, a.epoch, { kind: 'refused', status: a.status });
    const inUse = Math.max(a.inFlight, a.busy ?? 0) * 2 >= this.limit;
    // A refusal comes back without the route's work: it says nothing of how long the route takes to
    // serve, only that the run waited on it.
    if (a.status >= 400) {
      if (inUse && a.latencyMs >= WAITING_MS && remaining === undefined) this.#grow({ kind: 'waiting', latencyMs: Math.round(a.latencyMs) });
      return;
    }
    const route = this.#observe(a.route ?? '', a.latencyMs);
    if (a.latencyMs > route.fastestMs * SLOW_FACTOR && a.latencyMs - route.fastestMs > SLOW_MARGIN_MS) {
      return this.#decrease(this.#limit * DECREASE, a.epoch, { kind: 'overloaded', latencyMs: Math.round(a.latencyMs), fastestMs: Math.round(route.fastestMs) });
    }
    const queued = a.latencyMs > route.fastestMs * QUEUE_FACTOR + QUEUE_MARGIN_MS;
    // Below WAITING_MS the windows measure the harness's and the loopback's noise, not a queue.
    if (queued && route.shortMs >= WAITING_MS && route.shortMs > route.longMs * TOLERANCE) {
      const gradient = Math.max(DECREASE, (TOLERANCE * route.longMs) / route.shortMs);
      return this.#decrease(this.#limit * gradient, a.epoch, { kind: 'slower', shortMs: Math.round(route.shortMs), longMs: Math.round(route.longMs) });
    }
    // Grown only while in use (at least half of it, as Netflix's AIMD): a limit the run never
    // came near proves nothing about the endpoint.
    if (queued || !inUse || a.latencyMs < WAITING_MS || (remaining !== undefined && remaining <= this.limit)) return;
    this.#grow({ kind: 'flat', latencyMs: Math.round(route.shortMs) });
  }

  /** One more slot per answer in slow start (doubling per round trip), else per round trip; never up to a count the endpoint turned away. */
  #grow(why: LimitReason): void {
    if (this.#limit + 1 >= this.#refusedLowest) return;
    if (this.#slowStart) {
      this.#set(this.#limit + 1, why);
      return;
    }
    this.#credit += 1 / this.limit;
    if (this.#credit >= 1) {
      this.#credit = 0;
      this.#set(this.#limit + 1, why);
    }
  }

  /** A request that got no answer in time: the endpoint may be overwhelmed. */
  silent(epoch: number): void {
    if (this.adaptive) this.#decrease(this.#limit * DECREASE, epoch, { kind: 'silent' });
  }

  stats(): ConcurrencyStats {
    const reached = Math.min(this.#acceptedPeak, this.#refusedLowest - 1);
    return {
      initial: this.policy.initial,
      max: this.policy.max,
      adaptive: this.adaptive,
      limit: this.limit,
      highest: this.#highest,
      reached: Math.max(0, reached),
      decreases: this.#decreases,
      changes: this.#changes.map((c) => ({ ...c, why: { ...c.why } })),
      changesOmitted: this.#changesOmitted,
    };
  }

  /** Folds one served answer's latency into its route's fastest and windows. */
  #observe(key: string, latencyMs: number): RouteLatency {
    const route = this.#routes.get(key);
    if (route === undefined) {
      const first = { fastestMs: latencyMs, shortMs: latencyMs, longMs: latencyMs };
      this.#routes.set(key, first);
      return first;
    }
    route.fastestMs = Math.min(route.fastestMs, latencyMs);
    route.shortMs += (latencyMs - route.shortMs) / SHORT_WINDOW;
    route.longMs += (latencyMs - route.longMs) / LONG_WINDOW;
    // Latency fell back well below what the long window remembers: let it forget faster (Gradient2).
    if (route.longMs > 2 * route.shortMs) route.longMs *= 0.95;
    return route;
  }

  #decrease(to: number, epoch: number, why: LimitReason): void {
    // One decrease per round trip: a burst of 429s to attempts sent together is one signal.
    if (epoch < this.#epoch) return;
    this.#epoch += 1;
    this.#slowStart = false;
    this.#credit = 0;
    if (this.#set(to, why)) this.#decreases += 1;
  }

  /** The limit is a whole number of requests: it grows by one and comes down to a whole share. True when it moved. */
  #set(limit: number, why: LimitReason): boolean {
    const next = Math.min(this.policy.max, Math.max(1, Math.floor(limit)));
    if (next === this.#limit) return false;
    this.#record(this.#limit, next, why);
    this.#limit = next;
    this.#highest = Math.max(this.#highest, next);
    this.#onChange(next);
    return true;
  }

  #record(from: number, to: number, why: LimitReason): void {
    const atMs = Math.round(this.#now() - this.#born);
    const last = this.#changes.at(-1);
    // Growth after growth of the same kind is one climb: where it began, where it got to, how fast answers came meanwhile.
    if (last !== undefined && this.#changesOmitted === 0 && last.why.kind === why.kind && (why.kind === 'flat' || why.kind === 'waiting') && to > from) {
      last.atMs = atMs;
      last.to = to;
      last.why = why;
      return;
    }
    if (this.#changes.length >= MAX_CHANGES) {
      this.#changesOmitted += 1;
      return;
    }
    this.#changes.push({ sinceMs: atMs, atMs, from, to, why });
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
