import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { closeAfterEach } from '#harness/testing/closeAfterEach.ts';
import { createTransport } from '../createTransport.ts';
import { isTransportError } from '../errors.ts';
import { SPEC_RETRY_POLICY, pause, startServer, type TestServer } from '#harness/testing/httpTestServer.ts';
import type { Transport, TransportOptions } from '../types.ts';
import { RetryBudget } from './retry.ts';

let server: TestServer | undefined;
let transport: Transport | undefined;
closeAfterEach(() => [transport, server]);

/** A transport whose waits are recorded, not slept. */
function recordingTransport(overrides: Partial<TransportOptions> = {}): { transport: Transport; waits: number[]; retries: unknown[] } {
  const waits: number[] = [];
  const retries: unknown[] = [];
  transport = createTransport({
    secrets: [],
    concurrency: 4,
    retry: SPEC_RETRY_POLICY,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    onRetry: (info) => retries.push(info),
    ...overrides,
  });
  return { transport, waits, retries };
}

/** Answers each request with the next status of a script (the last one repeats). */
async function scriptedServer(script: { status: number; headers?: Record<string, string>; body?: string }[]): Promise<{ seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  server = await startServer((req, res) => {
    const step = script[Math.min(seen.length, script.length - 1)]!;
    seen.push(req);
    req.resume();
    res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
    res.end(step.body ?? JSON.stringify({ status: step.status }));
  });
  return { seen };
}

describe('retry: Retry-After first', () => {
  test('a server that answers 429 with Retry-After: 1, then 200, yields the 200 after a wait of ~1 s', async () => {
    const { seen } = await scriptedServer([{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }]);
    const { transport, waits, retries } = recordingTransport();
    const res = await transport.send({ method: 'GET', url: `${server!.url}/models` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 200 });
    expect(waits).toEqual([1000]);
    expect(retries).toEqual([{ url: `${server!.url}/models`, status: 429, attempt: 1, waitMs: 1000 }]);
    expect(seen).toHaveLength(2);
    expect(res.exchange.attempts).toBe(2);
    expect(res.exchange.response?.status).toBe(200);
    expect(transport.stats()).toMatchObject({ requests: 2, retries: 1 });
  });

  test('a Retry-After date is measured from the answer\'s own Date, not this machine\'s clock (skewed, or a replay years later)', async () => {
    // The server's clock is in 2001: by this machine's, its Retry-After date is long past (no wait).
    const date = 'Mon, 01 Jan 2001 00:00:00 GMT';
    await scriptedServer([{ status: 429, headers: { date, 'retry-after': 'Mon, 01 Jan 2001 00:00:04 GMT' } }, { status: 200 }]);
    const { transport, waits } = recordingTransport();
    expect((await transport.send({ method: 'GET', url: `${server!.url}/models` })).status).toBe(200);
    expect(waits).toEqual([4000]);
  });

  test('without an injected sleep the wait is the real clock\'s: the retry is not sent while Retry-After runs', async () => {
    const { seen } = await scriptedServer([{ status: 429, headers: { 'retry-after': '30' } }, { status: 200 }]);
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const caught = transport.send({ method: 'GET', url: `${server!.url}/models` }).catch((err: unknown) => err);
    while (seen.length === 0) await pause(10);
    // Nothing is measured: a sleep that did not wait would have sent the retry by now; one that waits 30 s cannot have.
    await pause(200);
    expect(seen).toHaveLength(1);
    await transport.close();
    const err = await caught;
    expect(isTransportError(err) && err.code).toBe('HARNESS_CLOSED');
  });
});

describe('retry: a Retry-After beyond the back-off cap', () => {
  test('3600 s is not waited out: the request is refused at once, HARNESS_WAIT_REFUSED, with the answer and the wait it asked as evidence', async () => {
    const { seen } = await scriptedServer([{ status: 429, headers: { 'retry-after': '3600' }, body: '{"error":{"message":"slow down"}}' }, { status: 200 }]);
    const { transport, waits, retries } = recordingTransport();
    const err = await transport.send({ method: 'POST', url: `${server!.url}/chat/completions`, body: { model: 'm' } }).catch((e: unknown) => e);
    expect(isTransportError(err) && err.code).toBe('HARNESS_WAIT_REFUSED');
    expect(isTransportError(err) && err.what).toBe('HTTP 429 asked to wait 3600 s; the description caps back-off at 60 s');
    const exchange = isTransportError(err) ? err.exchange : undefined;
    expect(exchange?.beyondCap).toEqual({ askedMs: 3_600_000, capMs: 60_000 });
    expect(exchange?.response?.status).toBe(429);
    expect(exchange?.response?.body).toEqual({ error: { message: 'slow down' } });
    expect(exchange?.attempts).toBe(1);
    expect([waits, retries, seen.length]).toEqual([[], [], 1]);
  });

  test('after a wait within the cap, a second answer beyond it ends the request the same way', async () => {
    const { seen } = await scriptedServer([{ status: 503, headers: { 'retry-after': '60' } }, { status: 503, headers: { 'retry-after': '61' } }, { status: 200 }]);
    const { transport, waits } = recordingTransport();
    const err = await transport.send({ method: 'GET', url: `${server!.url}/models` }).catch((e: unknown) => e);
    expect(waits).toEqual([60_000]);
    expect(isTransportError(err) && [err.code, err.exchange.attempts, err.exchange.beyondCap]).toEqual(['HARNESS_WAIT_REFUSED', 2, { askedMs: 61_000, capMs: 60_000 }]);
    expect(seen).toHaveLength(2);
  });

  test('the cap is the policy\'s (spec/errors.yaml max_delay_seconds), not a number of the transport', async () => {
    await scriptedServer([{ status: 429, headers: { 'retry-after': '3' } }, { status: 200 }]);
    const { transport } = recordingTransport({ retry: { ...SPEC_RETRY_POLICY, max_delay_seconds: 2 } });
    const err = await transport.send({ method: 'GET', url: `${server!.url}/models` }).catch((e: unknown) => e);
    expect(isTransportError(err) && err.what).toBe('HTTP 429 asked to wait 3 s; the description caps back-off at 2 s');
  });

  test('a 500 asked again once (its confirmation) is not held an hour by its Retry-After either', async () => {
    const { seen } = await scriptedServer([{ status: 500, headers: { 'retry-after': '3600' } }, { status: 200 }]);
    const { transport, waits } = recordingTransport();
    const err = await transport.send({ method: 'GET', url: `${server!.url}/models` }).catch((e: unknown) => e);
    expect(isTransportError(err) && [err.code, err.what]).toEqual(['HARNESS_WAIT_REFUSED', 'HTTP 500 asked to wait 3600 s; the description caps back-off at 60 s']);
    expect([waits, seen.length]).toEqual([[], 1]);
  });

  test('a request whose first answer is final (a gateway check, the load phase) gets the 429 as it came', async () => {
    await scriptedServer([{ status: 429, headers: { 'retry-after': '3600' } }]);
    const { transport } = recordingTransport();
    const res = await transport.send({ method: 'GET', url: `${server!.url}/models`, final: true });
    expect(res.status).toBe(429);
    expect(res.exchange.beyondCap).toBeUndefined();
  });
});

describe('retry: exponential backoff', () => {
  test('without Retry-After: 1 s, 2 s, 4 s, 8 s plus jitter, 5 attempts, then the last 429 as it is', async () => {
    const { seen } = await scriptedServer([{ status: 429, body: '{"error":{"message":"slow down","type":"rate_limit"}}' }]);
    const { transport, waits } = recordingTransport();
    const res = await transport.send({ method: 'POST', url: `${server!.url}/chat/completions`, body: { model: 'm' } });
    expect(waits).toEqual([1500, 2500, 4500, 8500]);
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: { message: 'slow down', type: 'rate_limit' } });
    expect(seen).toHaveLength(5);
    expect(res.exchange.attempts).toBe(5);
    expect(transport.stats()).toMatchObject({ requests: 5, retries: 4 });
  });

  test('the backoff is capped at 60 s (plus jitter)', async () => {
    await scriptedServer([{ status: 429 }]);
    const { transport, waits } = recordingTransport({ retry: { ...SPEC_RETRY_POLICY, max_attempts: 9 } });
    await (await transport.send({ method: 'GET', url: `${server!.url}/models` })).text();
    expect(waits).toEqual([1500, 2500, 4500, 8500, 16_500, 32_500, 60_500, 60_500]);
  });

  test('after a 503, at least 30 s', async () => {
    await scriptedServer([{ status: 503 }, { status: 503, headers: { 'retry-after': '2' } }, { status: 200 }]);
    const { transport, waits } = recordingTransport();
    const res = await transport.send({ method: 'GET', url: `${server!.url}/models` });
    expect(res.status).toBe(200);
    expect(waits).toEqual([30_000, 30_000]);
  });

  test('500 is retried (advised); 400 and 401 are not', async () => {
    await scriptedServer([{ status: 500 }, { status: 400 }]);
    const { transport, waits } = recordingTransport();
    const res = await transport.send({ method: 'GET', url: `${server!.url}/models` });
    expect(res.status).toBe(400);
    expect(waits).toEqual([1500]);
    expect(res.exchange.attempts).toBe(2);
  });

  test('retry: false still waits out a 429 (Retry-After first): a rate limit is never a verdict', async () => {
    const { seen } = await scriptedServer([{ status: 429, headers: { 'retry-after': '3' } }, { status: 503 }, { status: 200 }]);
    const { transport, waits } = recordingTransport();
    const res = await transport.send({ method: 'GET', url: `${server!.url}/models`, retry: false });
    expect(res.status).toBe(200);
    expect(waits).toEqual([3000, 30_000]);
    expect(seen).toHaveLength(3);
  });

  test('a 500 is never a verdict on the first try: retry: false (a request expecting a refusal) asks once more; the expected answer then is what it gets', async () => {
    const { seen } = await scriptedServer([{ status: 500 }, { status: 401 }]);
    const { transport, waits } = recordingTransport();
    const res = await transport.send({ method: 'GET', url: `${server!.url}/models`, retry: false });
    expect(res.status).toBe(401);
    expect(waits).toEqual([1500]);
    expect(seen).toHaveLength(2);
    expect(res.exchange.attempts).toBe(2);
  });

  test('the same 5xx twice is the answer (a deterministic 5xx is not transient); a different one goes on by the policy', async () => {
    const same = await scriptedServer([{ status: 500 }, { status: 500 }, { status: 200 }]);
    const { transport, waits } = recordingTransport();
    const res = await transport.send({ method: 'GET', url: `${server!.url}/models` });
    expect(res.status).toBe(500);
    expect(res.exchange.attempts).toBe(2);
    expect(same.seen).toHaveLength(2);
    await server!.close();
    const other = await scriptedServer([{ status: 502 }, { status: 500 }, { status: 200 }]);
    const res2 = await transport.send({ method: 'GET', url: `${server!.url}/models` });
    expect(res2.status).toBe(200);
    expect(res2.exchange.attempts).toBe(3);
    expect(other.seen).toHaveLength(3);
    expect(waits).toEqual([1500, 1500, 2500]);
  });

  test('501 says what it is at once: it is not asked again', async () => {
    const { seen } = await scriptedServer([{ status: 501 }, { status: 200 }]);
    const { transport, waits } = recordingTransport();
    expect((await transport.send({ method: 'POST', url: `${server!.url}/chat/completions`, body: {} })).status).toBe(501);
    expect(waits).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  test('a retried response body is drained first: the retry goes out on the same kept-alive connection', async () => {
    const sockets: Socket[] = [];
    server = await startServer((req, res) => {
      sockets.push(req.socket);
      req.resume();
      if (sockets.length === 1) {
        res.writeHead(429, { 'content-type': 'text/plain' });
        res.end('x'.repeat(300_000)); // more than undici's buffers hold: it has to be read off
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      }
    });
    const waits: number[] = [];
    transport = createTransport({
      secrets: [],
      concurrency: 1,
      retry: SPEC_RETRY_POLICY,
      random: () => 0.5,
      // A short real wait: the drained connection is back in the pool when the retry goes out.
      sleep: async (ms) => {
        waits.push(ms);
        await new Promise((r) => setTimeout(r, 20));
      },
    });
    const res = await transport.send({ method: 'POST', url: `${server.url}/chat/completions`, body: { n: 1 } });
    expect(res.status).toBe(200);
    expect(waits).toEqual([1500]);
    expect(sockets).toHaveLength(2);
    expect(sockets[1]).toBe(sockets[0]);
  });

  test('the request body is sent again on every attempt', async () => {
    const bodies: string[] = [];
    server = await startServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(bodies.length < 3 ? 503 : 200).end('{}');
      });
    });
    const { transport } = recordingTransport();
    const res = await transport.send({ method: 'POST', url: `${server.url}/chat/completions`, body: { model: 'm', messages: [] } });
    expect(res.status).toBe(200);
    expect(bodies).toEqual(Array(3).fill('{"model":"m","messages":[]}'));
  });

  // The bound is the test's timeout: a 503's wait is at least 30 s, so only an ended wait lets it finish.
  test('close() during a retry wait ends the request at once with HARNESS_CLOSED', async () => {
    const { seen } = await scriptedServer([{ status: 503 }]);
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const pending = transport.send({ method: 'GET', url: `${server!.url}/models` });
    const caught = pending.catch((err: unknown) => err);
    while (seen.length === 0) await pause(10);
    await pause(100); // the 503 has been read by now, and its wait begun (were it not, close() ends the request all the same)
    await transport.close();
    const err = await caught;
    expect(isTransportError(err) && err.code).toBe('HARNESS_CLOSED');
  }, 20_000);
});

describe('RetryBudget', () => {
  test('5xx retries are counted down; 429 is never counted', () => {
    const b = new RetryBudget(2);
    expect([b.take(500), b.take(503), b.take(500), b.take(429), b.take(429)]).toEqual([true, true, false, true, true]);
  });
});

describe('retry: waiting out a "not now"', () => {
  /** A transport of one slot whose waits last until the test ends them; the server answers `status` (503) to first attempts. */
  async function waitingRun(probe: boolean, status = 503) {
    const firsts = new Set<string>();
    server = await startServer((req, res) => {
      req.resume();
      const again = firsts.has(req.url!);
      firsts.add(req.url!);
      res.writeHead(again ? 200 : status, { 'content-type': 'application/json' }).end('{}');
    });
    let release!: () => void;
    const waits = new Promise<void>((done) => (release = done));
    const waiting: number[] = [];
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY, random: () => 0.5, sleep: (ms) => (waiting.push(ms), waits) });
    const sent = ['/a', '/b', '/c'].map((path) => transport!.send({ method: 'GET', url: `${server!.url}${path}`, probe }));
    return { sent, firsts, waiting, release };
  }

  test('probes give their slot back while they wait, so every route is asked at once: one backoff in all, not one per route', async () => {
    const { sent, firsts, waiting, release } = await waitingRun(true);
    while (waiting.length < 3) await pause(10);
    expect(firsts.size).toBe(3);
    release();
    expect((await Promise.all(sent)).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  test('a request refused with 429 gives its slot back while it waits: it holds nothing at the endpoint, and a Retry-After to the next minute would keep the slot empty', async () => {
    const { sent, firsts, waiting, release } = await waitingRun(false, 429);
    while (waiting.length < 3) await pause(10);
    expect(firsts.size).toBe(3);
    release();
    expect((await Promise.all(sent)).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  test('any other request waiting out a 503 keeps its slot through the wait: nothing more is sent to a service that asked for a pause', async () => {
    const { sent, firsts, waiting, release } = await waitingRun(false);
    while (waiting.length < 1) await pause(10);
    await pause(100);
    expect([firsts.size, waiting.length]).toEqual([1, 1]);
    release();
    expect((await Promise.all(sent)).map((r) => r.status)).toEqual([200, 200, 200]);
  });
});
