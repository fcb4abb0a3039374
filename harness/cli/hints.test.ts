import { resultOf } from '#harness/testing/results.ts';
import { describe, expect, test } from 'vitest';
import { withResults } from '#harness/testing/outcomeRecords.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { hintsOf } from './hints.ts';

describe('hints after a run', () => {
  test('a cell most of whose checks got no answer for one cause: the server is down or the URL wrong, said once', () => {
    const r = sampleRecord();
    const refused = 'HARNESS_CONNECT: connection refused (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9';
    const cause = { code: 'HARNESS_CONNECT', what: 'connection refused (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9' };
    const dead = withResults({ ...r, target: { kind: 'live', baseUrl: 'http://127.0.0.1:9', messagesBaseUrl: 'http://127.0.0.1:9/anthropic' } }, r.results.map((x) => resultOf({ ...x, verdict: 'error' as const, reason: `${refused} — POST http://127.0.0.1:9/chat/completions`, cause })));
    expect(hintsOf([dead, { ...dead, model: 'svc-v4-pro', results: dead.results.slice(1) }])).toEqual([
      `svc-conformance: http://127.0.0.1:9 gave no answer to most checks (${refused}): check that the server is running and that --base-url (and the port) is right.`,
    ]);
    expect(hintsOf([sampleRecord()])).toEqual([]);
  });

  test('a cell that stopped sending to a silent route: one line saying where, why, and what to try', () => {
    const r = sampleRecord();
    const why = 'a request waited its whole timeout: HARNESS_TIMEOUT: the body did not end within 31600 ms of its headers (the exchange\'s deadline) — POST http://127.0.0.1:9/chat/completions';
    const cause = { code: 'HARNESS_TIMEOUT', what: 'the body did not end within 31600 ms of its headers (the exchange\'s deadline)', declared: { route: 'POST {base_url}/chat/completions (streamed)', grounds: why } };
    const results = r.results.map((x, i) => resultOf({ ...x, verdict: 'error' as const, reason: `HARNESS_UNRESPONSIVE: ${i === 0 ? 'abandoned' : 'not sent'}: POST {base_url}/chat/completions (streamed) was declared unresponsive: ${why} — POST http://127.0.0.1:9/chat/completions`, cause }));
    const cell = withResults({ ...r, target: { kind: 'live', baseUrl: 'http://127.0.0.1:9', messagesBaseUrl: 'http://127.0.0.1:9/anthropic' } }, results);
    expect(hintsOf([cell])).toEqual([
      `svc-conformance: http://127.0.0.1:9: stopped early: ${results.length} ${results.length === 1 ? 'check was' : 'checks were'} not sent to POST {base_url}/chat/completions (streamed), which gave no answer (${why}). Check that the server is running; if it is only slow, raise --timeout-ms (headers, gaps) or --deadline-ms (a whole body).`,
    ]);
  });

  test('the advice follows the cause: bytes that are not HTTP are no sign of slowness', () => {
    const r = sampleRecord();
    const why = 'HARNESS_PROTOCOL: the answer is not HTTP/1.1 (Expected HTTP/) — GET http://127.0.0.1:9/models';
    const cause = { code: 'HARNESS_PROTOCOL', what: 'the answer is not HTTP/1.1 (Expected HTTP/)', declared: { route: 'endpoint', grounds: why } };
    const results = r.results.map((x) => resultOf({ ...x, verdict: 'error' as const, reason: `HARNESS_UNRESPONSIVE: not sent: the endpoint was declared unresponsive: ${why}`, cause }));
    const [hint] = hintsOf([withResults({ ...r, target: { kind: 'live', baseUrl: 'http://127.0.0.1:9', messagesBaseUrl: 'http://127.0.0.1:9/anthropic' } }, results)]);
    expect(hint).toMatch(/What answers there is not an HTTP server: check that --base-url names the API's HTTP\(S\) address and port\.$/);
    expect(hint).not.toMatch(/slow|--timeout-ms/);
  });
});
