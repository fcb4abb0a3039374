import type { AnswerTimes } from '#harness/core/answerTimes.ts';
import type { Exchange } from '#harness/core/exchange.ts';
import type { RetryPolicy } from '#harness/spec/model.ts';
import type { Answer } from '#harness/core/answer.ts';
import type { SseEvent } from '#harness/core/sseFold.ts';
import type { KeyRefused } from './keyRefusal.ts';
import type { Timing } from './timing.ts';
import type { ConcurrencyStats } from './adaptiveLimit.ts';
import type { Semaphore } from './semaphore.ts';

export type { SseEvent, KeyRefused };

export interface TransportOptions {
  /** Secrets to scrub from every recorded byte (the API key). */
  secrets: readonly string[];
  /** Requests in flight at once, across the whole transport (>= 1); where the limit starts when it adapts. */
  concurrency: number;
  /** Above `concurrency`: the limit adapts to the endpoint up to this (adaptiveLimit.ts). Default: fixed at `concurrency`. */
  maxConcurrency?: number;
  /**
   * One cap on requests in flight shared by the transports of a run's targets (run --max-in-flight):
   * each target's own limit adapts below it. Default: none.
   */
  runCap?: Semaphore;
  /** The spec's retry guidance: `spec.errors.retry`. */
  retry: RetryPolicy;
  /** How long to wait (timing.ts); what is left out is DEFAULT_TIMING's. */
  timing?: Partial<Timing>;
  /** Cap on a recorded body (bytes), and on what `text()` reads: past it the connection is dropped. Default 1 MiB. */
  maxRecordedBytes?: number;
  /** The most bytes of one stream `events()` reads (past it: MalformedResponseError BODY_TOO_LARGE). Default 16 MiB. */
  maxStreamBytes?: number;
  /** 5xx retries allowed in the whole life of the transport (a run). Default 24; 429 is not counted. */
  retryBudget?: number;
  /**
   * The run's stop (runner/runStop.ts `abandon`): once it aborts, nothing more is sent, and every
   * request in flight (its body being read, its Retry-After being waited out) ends now with
   * HARNESS_INTERRUPTED, quoting the signal's reason.
   */
  abandon?: AbortSignal;
  /** For tests: replace the clock's sleep and the jitter source. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Called before each retry wait, for progress output. `attempt` is the attempt answered with `status`; `url` is redacted. */
  onRetry?: (info: { url: string; status: number; attempt: number; waitMs: number }) => void;
  /**
   * Called with every exchange (already redacted): once when the response headers arrive (or the
   * request failed), and again when its body has been read to the end or broke off, so a body
   * nobody reads is still recorded. `secret` is the index in `secrets` of the key the request's
   * headers carried (none: no known key). For fixtures (`record`).
   */
  record?: (exchange: Exchange, info: { secret?: number }) => void;
}

export interface SendRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** JSON body (sent with `content-type: application/json` unless a content-type is given); or `rawBody` to send bytes that are deliberately not JSON. */
  body?: unknown;
  rawBody?: string;
  /** false: a 500 is asked again once only (retry.ts), not by the advised backoff. 429 and 503 are always waited out. Default true. */
  retry?: boolean;
  /** true: the first answer is final, a 429 or 503 too (never waited out). Default false. */
  final?: boolean;
  /** A minimal valid request that must be answered: no answer to it declares its route unresponsive at once. */
  probe?: boolean;
  /** The route it goes to, the breaker's key (breaker.ts); default: method, path, and whether it streams. */
  route?: string;
  /** Its place in line when every slot is taken: higher goes first (priority.ts: a retry rejoining, a probe, a link of a long chain); default 0. */
  priority?: number;
  /** This request's cap on its stream, when it knows better than the transport's (what it asked for). */
  maxStreamBytes?: number;
  /** A request of the load phase: outside the limit and the adaptive limit, never retried, its silence declaring no route (interceptors/context.ts `load`). */
  load?: boolean;
}

/** What the transport hands back for a request: the one response type of the harness (core/answer.ts). */
export type SendResult = Answer;

export interface TransportStats {
  /** The most requests in flight at once. */
  maxInFlight: number;
  /** HTTP requests sent, retries included. */
  requests: number;
  /** Of those, retries. */
  retries: number;
  /** Where the limit started, where it is, and the concurrency the endpoint took (adaptiveLimit.ts). */
  concurrency: ConcurrencyStats;
  /** How long each kind of answer took (answerTimes.ts): information for the reports. */
  answerTimes: AnswerTimes;
}

/**
 * What one request waits on now, for the run's progress: its response headers (sent, none yet), its
 * body (headers came, the last byte not), or a retry (the endpoint said "not now"; it is asked again
 * after). `since` and `until` are performance.now(): `until` is the bound that ends the wait (the
 * headers timeout, the body's deadline, the retry's wait).
 */
export interface Waiting {
  /** `POST https://host/chat/completions`, redacted. */
  request: string;
  on: 'headers' | 'body' | 'retry';
  since: number;
  until: number;
  /** A retry's: the status that asked for it, and whether its Retry-After set the wait (else the backoff). */
  status?: number;
  retryAfter?: boolean;
}

export interface Transport {
  send(req: SendRequest): Promise<SendResult>;
  close(): Promise<void>;
  stats(): TransportStats;
  /** Set once the endpoint refused the run's key (keyRefusal.ts): requests carrying it are no longer sent. */
  keyRefused(): KeyRefused | undefined;
  /** What each request on the wire waits on now (the progress line's "waiting on"). */
  waiting(): Waiting[];
}
