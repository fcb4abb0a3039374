import { HarnessError } from '#harness/core/errors/index.ts';
import type { Exchange } from '#harness/core/exchange.ts';
import type { Declaration } from './routeHealth.ts';

/**
 * Why no complete response came back:
 * - `HARNESS_CONNECT`: no connection (refused, unknown host, unreachable, TLS handshake failed);
 * - `HARNESS_TIMEOUT`: connecting, the response headers, or the gap between body chunks took too long;
 * - `HARNESS_RESET`: the connection broke before the response was complete;
 * - `HARNESS_PROTOCOL`: what came back is not HTTP/1.1;
 * - `HARNESS_CLOSED`: the transport was closed while the request waited or ran;
 * - `HARNESS_UNRESPONSIVE`: not sent (or abandoned): its route, or the endpoint, was declared unresponsive (routeHealth.ts);
 * - `HARNESS_KEY_REFUSED`: not sent: the request carries the run's key, which the endpoint refused (keyRefusal.ts);
 * - `HARNESS_INTERRUPTED`: not sent, or abandoned after the stop's grace: the run was stopped (SIGINT, SIGTERM, its time ceiling);
 * - `HARNESS_WAIT_REFUSED`: answered (429, 503, a 5xx it would ask again) with a Retry-After beyond the description's back-off
 *   cap: not waited out, the request is refused (the exchange holds the answer and `beyondCap`).
 */
export type TransportErrorCode = 'HARNESS_CONNECT' | 'HARNESS_TIMEOUT' | 'HARNESS_RESET' | 'HARNESS_PROTOCOL' | 'HARNESS_CLOSED' | 'HARNESS_UNRESPONSIVE' | 'HARNESS_KEY_REFUSED' | 'HARNESS_INTERRUPTED' | 'HARNESS_WAIT_REFUSED';

/** The codes that mean the endpoint gave no answer at all: silence, which alone makes a route (or the endpoint) unresponsive. */
export const NO_ANSWER: ReadonlySet<string> = new Set<TransportErrorCode>(['HARNESS_CONNECT', 'HARNESS_TIMEOUT', 'HARNESS_RESET', 'HARNESS_PROTOCOL']);

/**
 * Why the transport itself ended a dispatch: the reason an interceptor aborts it with (a request not
 * sent, one abandoned, a body past its deadline). networkError.ts turns it into a TransportError.
 */
export class DispatchEnded extends Error {
  constructor(
    readonly code: 'HARNESS_UNRESPONSIVE' | 'HARNESS_KEY_REFUSED' | 'HARNESS_INTERRUPTED' | 'HARNESS_TIMEOUT',
    message: string,
    /** For HARNESS_UNRESPONSIVE: the declaration it was not sent (or abandoned) for. */
    readonly declaration?: Declaration,
  ) {
    super(message);
    this.name = 'DispatchEnded';
  }
}

/**
 * The exchange could not be completed, so a check that meets one ends `errored`: it says nothing
 * about the endpoint's conformance. Carries the exchange as far as it got (redacted, with
 * `exchange.error` set): a stream reset mid-way keeps the events that arrived.
 * Message: `<what> — <METHOD> <url>`, the URL redacted.
 */
export class TransportError extends HarnessError {
  declare readonly code: TransportErrorCode;
  readonly exchange: Exchange;
  /** What happened, without where (redacted). */
  readonly what: string;
  /** For HARNESS_UNRESPONSIVE: the declaration it was not sent (or abandoned) for. */
  readonly declaration: Declaration | undefined;

  /** @param what already redacted */
  constructor(code: TransportErrorCode, what: string, exchange: Exchange, options?: { cause?: unknown; declaration?: Declaration }) {
    super(code, `${what} — ${exchange.request.method} ${exchange.request.url}`, options);
    this.name = 'TransportError';
    this.exchange = exchange;
    this.what = what;
    this.declaration = options?.declaration;
    exchange.error = { code, message: this.message };
  }
}

export function isTransportError(value: unknown): value is TransportError {
  return value instanceof TransportError;
}

/**
 * - `MALFORMED_JSON`: `json()` was asked for and the body does not parse (`text` holds it);
 * - `INVALID_UTF8`: `json()` was asked for and the body's bytes are not UTF-8, so not JSON text;
 * - `BODY_TOO_LARGE`: the body outgrew what the harness reads of one (`maxRecordedBytes` for a
 *   body read whole, `maxStreamBytes` for a stream): reading stopped, the connection was dropped;
 * - `MALFORMED_STREAM`: the event stream cannot be split into events (it ended inside an event,
 *   or one event outgrew the parser's buffer).
 */
export type MalformedResponseCode = 'MALFORMED_JSON' | 'INVALID_UTF8' | 'BODY_TOO_LARGE' | 'MALFORMED_STREAM';

/**
 * The endpoint answered, and the answer cannot be read the way the caller asked. Deliberately not
 * a HarnessError: what came back is evidence about the endpoint, and a check can turn it into a
 * failure. Message: `<what> — <METHOD> <url>`; everything it holds is redacted. Like a
 * TransportError it sets `exchange.error`, so the evidence says why even when the caller only
 * notes that there was no body to judge.
 */
export class MalformedResponseError extends Error {
  readonly code: MalformedResponseCode;
  readonly exchange: Exchange;
  /** For `MALFORMED_JSON`: the body as text (redacted, cut at the recording limit). */
  readonly text: string | undefined;

  /** @param what already redacted */
  constructor(code: MalformedResponseCode, what: string, exchange: Exchange, options?: { text?: string; cause?: unknown }) {
    super(`${what} — ${exchange.request.method} ${exchange.request.url}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MalformedResponseError';
    this.code = code;
    this.exchange = exchange;
    this.text = options?.text;
    exchange.error = { code, message: this.message };
  }
}

export function isMalformedResponseError(value: unknown): value is MalformedResponseError {
  return value instanceof MalformedResponseError;
}
