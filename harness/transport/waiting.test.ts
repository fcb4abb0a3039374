import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { SPEC_RETRY_POLICY, pause, startServer, type TestServer } from '#harness/testing/httpTestServer.ts';
import { createTransport } from './createTransport.ts';
import { isTransportError } from './errors.ts';
import type { Transport } from './types.ts';

let server: TestServer | undefined;
let transport: Transport | undefined;
const held: ServerResponse[] = [];
afterEach(async () => {
  for (const r of held.splice(0)) r.destroy();
  await transport?.close();
  await server?.close();
});

/** A server whose answer to each path is given; `hold` sends nothing, `trickle` headers and a first piece only. */
async function serve(answers: Record<string, 'hold' | 'trickle' | { status: number; retryAfter: string }>): Promise<string> {
  server = await startServer((req, res) => {
    req.resume();
    const a = answers[(req.url ?? '/').split('?')[0]!];
    if (a === 'hold') return void held.push(res);
    if (a === 'trickle') {
      held.push(res);
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"id":');
      return;
    }
    res.writeHead(a?.status ?? 200, { 'content-type': 'application/json', ...(a ? { 'retry-after': a.retryAfter } : {}) }).end('{}');
  });
  return server.url;
}

describe('transport.waiting(): what each request on the wire waits on, and until when', () => {
  test('a retry waiting out a Retry-After, a request waiting for headers, a body being read: each with its bound; none once they end', async () => {
    const url = await serve({ '/retry': { status: 429, retryAfter: '5' }, '/hold': 'hold', '/trickle': 'trickle' });
    // The retry's sleep never ends by itself: the wait is what is asked about.
    const stop = new AbortController();
    transport = createTransport({ secrets: ['sk-secret-in-url'], concurrency: 8, retry: SPEC_RETRY_POLICY, timing: { headersMs: 30_000, totalMs: 40_000 }, abandon: stop.signal, sleep: () => new Promise(() => undefined) });
    const sent = performance.now();
    const retried = transport.send({ method: 'GET', url: `${url}/retry?key=sk-secret-in-url` }).catch((e: unknown) => e);
    const hold = transport.send({ method: 'GET', url: `${url}/hold` }).catch((e: unknown) => e);
    const trickle = await transport.send({ method: 'POST', url: `${url}/trickle`, body: { max_tokens: 10 } });
    const reading = trickle.text().catch((e: unknown) => e);
    for (let i = 0; i < 500 && (transport.waiting().length < 3 || !transport.waiting().some((w) => w.on === 'retry')); i++) await pause(10);
    const by = Object.fromEntries(transport.waiting().map((w) => [w.on, w]));
    expect(by.retry).toMatchObject({ request: `GET ${url}/retry?key=[REDACTED]`, status: 429, retryAfter: true });
    expect(by.retry!.until - by.retry!.since).toBeCloseTo(5000, -2);
    expect(by.headers).toMatchObject({ request: `GET ${url}/hold` });
    expect(by.headers!.since).toBeGreaterThanOrEqual(sent);
    expect(by.headers!.until - by.headers!.since).toBeCloseTo(10_000 + 30_000, 6);
    // A body's bound is its deadline: 30 s and 0.1 s per max_tokens asked (timing.ts).
    expect(by.body).toMatchObject({ request: `POST ${url}/trickle` });
    expect(by.body!.until - by.body!.since).toBeCloseTo(31_000, 6);
    // The stop ends every one of them, the retry's wait too.
    stop.abort(new Error('SIGINT'));
    for (const err of await Promise.all([retried, hold, reading])) expect(isTransportError(err) && err.code, String(err)).toBe('HARNESS_INTERRUPTED');
    expect(transport.waiting()).toEqual([]);
  });
});
