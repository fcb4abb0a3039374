import { STATUS_CODES } from 'node:http';
import type { Exchange } from '#harness/core/exchange.ts';

/** Headers that describe the bytes on the wire, not the body handed over: the replayed body is already decoded and whole. */
const WIRE_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * A `fetch` that answers whatever it is asked with the response an exchange recorded: its status,
 * its headers and its body as it arrived (a stream's text with its framing; a JSON body as the
 * recorded JSON). A client library handed it (the `fetch` option every official SDK takes) reads
 * the endpoint's own answer, without a second request to the endpoint and without patching the
 * process's fetch, so clients replayed at once cannot see each other's answers. Undefined when the
 * exchange holds no whole answer (no response, a body cut at the size cap).
 */
export function replayFetch(exchange: Exchange): typeof fetch | undefined {
  const response = exchange.response;
  if (!response || response.truncated) return undefined;
  const body = response.text ?? (response.body === undefined ? '' : JSON.stringify(response.body));
  const headers = Object.entries(response.headers).filter(([name]) => !WIRE_HEADERS.has(name.toLowerCase()));
  // The reason phrase is not recorded; a client that words an error by it (the AI SDK, for a body it
  // cannot read) gets the standard one, as from most servers over HTTP/1.1.
  const statusText = STATUS_CODES[response.status] ?? '';
  return async () => new Response(nullBodyStatus(response.status) ? null : body, { status: response.status, statusText, headers });
}

/** Statuses whose Response may carry no body (fetch refuses one). */
const nullBodyStatus = (status: number): boolean => status === 101 || status === 204 || status === 205 || status === 304;
