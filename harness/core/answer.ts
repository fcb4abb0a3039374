import type { Exchange } from './exchange.ts';
import type { SseEvent } from './sseFold.ts';

/**
 * What came back for one request, as the transport hands it (transport/types.ts SendResult) and a
 * check reads it (checks/context.ts CheckResponse): one type, so the two never drift apart.
 */
export interface Answer {
  status: number;
  /** The response headers as received (names lowercase, repeated headers joined with `, `); not redacted. */
  headers: Record<string, string>;
  /** The exchange so far; filled in as the body is consumed; redacted. */
  exchange: Exchange;
  /** Read the whole body as text (recorded, size-capped: past `maxRecordedBytes` reading stops); bytes that are not UTF-8 become U+FFFD. */
  text(): Promise<string>;
  /**
   * Read and parse as JSON; tolerates leading blank lines (real bodies have them); throws a typed
   * MalformedResponseError when it does not parse (MALFORMED_JSON), is not UTF-8 (INVALID_UTF8) or
   * was cut at `maxRecordedBytes` (BODY_TOO_LARGE).
   */
  json(): Promise<unknown>;
  /**
   * An SSE body read incrementally (core/sseFold.ts): events are yielded as they arrive, classified by `kind`, never buffered whole. Comments (`: keep-alive`) are recorded in exchange.response.events with data ':...'
   * (and yielded so, in their place: an event's data never starts with ':' in a chat stream). A malformed stream ends the iteration with a typed error, keeping what arrived:
   * TransportError (HARNESS_RESET, HARNESS_TIMEOUT) when the connection breaks, MalformedResponseError (MALFORMED_STREAM) when the stream ends inside an event,
   * (BODY_TOO_LARGE) past `maxStreamBytes`. An event whose bytes were not UTF-8 is yielded flagged `invalidUtf8`.
   * Stopping early (break) cancels the body and frees the request's slot.
   */
  events(): AsyncIterable<SseEvent>;
}
