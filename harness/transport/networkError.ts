import { redactText } from '#harness/core/redact.ts';
import type { Exchange } from '#harness/core/exchange.ts';
import { DispatchEnded, TransportError, type TransportErrorCode } from './errors.ts';
import type { Declaration } from './routeHealth.ts';
import type { Timing } from './timing.ts';

const CONNECT_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  EHOSTUNREACH: 'host unreachable',
  EHOSTDOWN: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
};

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

function codeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Happy eyeballs (several addresses tried) fails with an AggregateError of the attempts.
  if (err instanceof AggregateError) return codeOf(err.errors[0]);
  return undefined;
}

function nameOf(err: unknown): string | undefined {
  return err instanceof Error ? err.name : undefined;
}

/**
 * What a network failure from undici or the socket layer means for the harness, or `undefined`
 * when the error is not one (a bug, a bad argument): that is rethrown as it is.
 * Codes seen from undici 7: `ECONNREFUSED` (connect), `UND_ERR_SOCKET` "other side closed" (the
 * server closed the socket, before or during the body), `ECONNRESET` (a TCP reset),
 * `UND_ERR_{CONNECT,HEADERS,BODY}_TIMEOUT`, `HTTPParserError` (no code; not HTTP),
 * `UND_ERR_DESTROYED`/`UND_ERR_CLOSED` (the agent was closed), `AbortError` (a retry wait cut short
 * by close()).
 */
export function classifyNetworkError(err: unknown, timing: Timing): { code: TransportErrorCode; what: string; declaration?: Declaration } | undefined {
  if (err instanceof DispatchEnded) return { code: err.code, what: err.message, ...(err.declaration ? { declaration: err.declaration } : {}) };
  const code = codeOf(err);
  const name = nameOf(err);
  const detail = err instanceof Error ? `: ${err.message}` : '';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || name === 'ConnectTimeoutError') return { code: 'HARNESS_TIMEOUT', what: `connect timed out after ${timing.connectMs} ms` };
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { code: 'HARNESS_TIMEOUT', what: `no response headers within ${timing.headersMs} ms` };
  if (code === 'UND_ERR_BODY_TIMEOUT') return { code: 'HARNESS_TIMEOUT', what: `response body stalled for ${timing.idleMs} ms` };
  if (code !== undefined && code in CONNECT_CODES) return { code: 'HARNESS_CONNECT', what: `${CONNECT_CODES[code]} (${code})${detail}` };
  if (code !== undefined && TLS_CODE.test(code)) return { code: 'HARNESS_CONNECT', what: `TLS handshake failed (${code})${detail}` };
  if (code !== undefined && RESET_CODES.has(code)) return { code: 'HARNESS_RESET', what: `connection reset before the response was complete (${code})${detail}` };
  if (name === 'HTTPParserError' || code === 'UND_ERR_HEADERS_OVERFLOW' || code?.startsWith('HPE_')) return { code: 'HARNESS_PROTOCOL', what: `the response is not valid HTTP/1.1${detail}` };
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED' || name === 'AbortError') return { code: 'HARNESS_CLOSED', what: 'the transport was closed' };
  return undefined;
}

/**
 * A network failure as a TransportError carrying the exchange so far (its `attempts` and partial
 * response as recorded); any other error unchanged. The message is redacted.
 */
export function toTransportError(err: unknown, exchange: Exchange, secrets: readonly string[], timing: Timing): unknown {
  if (err instanceof TransportError) return err;
  const found = classifyNetworkError(err, timing);
  if (found === undefined) return err;
  return new TransportError(found.code, redactText(found.what, secrets), exchange, { cause: err, ...(found.declaration ? { declaration: found.declaration } : {}) });
}
