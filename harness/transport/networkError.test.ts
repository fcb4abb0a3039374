import { DEFAULT_TIMING } from './timing.ts';
import { describe, expect, test } from 'vitest';
import { classifyNetworkError, toTransportError } from './networkError.ts';
import { TransportError } from './errors.ts';

const TIMEOUTS = DEFAULT_TIMING;

function coded(code: string, message = code, name = 'Error'): Error {
  return Object.assign(new Error(message), { code, name });
}

describe('classifyNetworkError', () => {
  test.each([
    [coded('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error', 'ConnectTimeoutError'), 'HARNESS_TIMEOUT', 'connect timed out after 10000 ms'],
    [coded('UND_ERR_HEADERS_TIMEOUT'), 'HARNESS_TIMEOUT', 'no response headers within 60000 ms'],
    [coded('UND_ERR_BODY_TIMEOUT'), 'HARNESS_TIMEOUT', 'response body stalled for 60000 ms'],
    [coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), 'HARNESS_CONNECT', 'connection refused (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9'],
    [coded('ENOTFOUND', 'getaddrinfo ENOTFOUND x.invalid'), 'HARNESS_CONNECT', 'host not found (ENOTFOUND): getaddrinfo ENOTFOUND x.invalid'],
    [coded('ENETUNREACH'), 'HARNESS_CONNECT', 'network unreachable (ENETUNREACH): ENETUNREACH'],
    [coded('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'HARNESS_CONNECT', 'TLS handshake failed (DEPTH_ZERO_SELF_SIGNED_CERT): self-signed certificate'],
    [coded('ERR_TLS_CERT_ALTNAME_INVALID', 'bad name'), 'HARNESS_CONNECT', 'TLS handshake failed (ERR_TLS_CERT_ALTNAME_INVALID): bad name'],
    [coded('ECONNRESET', 'read ECONNRESET'), 'HARNESS_RESET', 'connection reset before the response was complete (ECONNRESET): read ECONNRESET'],
    [coded('UND_ERR_SOCKET', 'other side closed', 'SocketError'), 'HARNESS_RESET', 'connection reset before the response was complete (UND_ERR_SOCKET): other side closed'],
    [Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), { name: 'HTTPParserError' }), 'HARNESS_PROTOCOL', 'the response is not valid HTTP/1.1: Response does not match the HTTP/1.1 protocol'],
    [coded('UND_ERR_DESTROYED', 'The client is destroyed', 'ClientDestroyedError'), 'HARNESS_CLOSED', 'the transport was closed'],
    [Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' }), 'HARNESS_CLOSED', 'the transport was closed'],
    [new AggregateError([coded('ECONNREFUSED', 'connect ECONNREFUSED ::1:9'), coded('ECONNREFUSED')], ''), 'HARNESS_CONNECT', 'connection refused (ECONNREFUSED): '],
  ])('%s -> %s', (err, code, what) => {
    expect(classifyNetworkError(err, TIMEOUTS)).toEqual({ code, what });
  });

  test('anything else is not a network failure: rethrown as it is', () => {
    const bug = new TypeError('x is not a function');
    expect(classifyNetworkError(bug, TIMEOUTS)).toBeUndefined();
    expect(classifyNetworkError(coded('UND_ERR_INVALID_ARG'), TIMEOUTS)).toBeUndefined();
    const exchange = { request: { method: 'GET', url: 'http://h/', headers: {} }, attempts: 1 };
    expect(toTransportError(bug, exchange, [], TIMEOUTS)).toBe(bug);
    expect(exchange).not.toHaveProperty('error');
  });

  test('toTransportError: `<what> — <METHOD> <url>`, redacted, set on the exchange', () => {
    const exchange = { request: { method: 'POST', url: 'http://h/x?k=[REDACTED]', headers: {} }, attempts: 2 };
    const err = toTransportError(coded('ECONNREFUSED', 'refused by sk-secret-99'), exchange, ['sk-secret-99'], TIMEOUTS);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).message).toBe('connection refused (ECONNREFUSED): refused by [REDACTED] — POST http://h/x?k=[REDACTED]');
    expect((err as TransportError).exchange.error).toEqual({ code: 'HARNESS_CONNECT', message: (err as TransportError).message });
  });
});
