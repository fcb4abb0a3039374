import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { closeAfterEach } from '#harness/testing/closeAfterEach.ts';
import { isHarnessError } from '#harness/core/errors/index.ts';
import { REDACTED } from '#harness/core/redact.ts';
import { curlOf } from '#harness/core/curl.ts';
import { createTransport } from './createTransport.ts';
import { TransportError, isTransportError } from './errors.ts';
import { SPEC_RETRY_POLICY, deadPort, pause, startServer, type TestServer } from '#harness/testing/httpTestServer.ts';
import type { Transport } from './types.ts';
import { Semaphore } from './semaphore.ts';
import { bodyDeadlineMs, DEFAULT_TIMING } from './timing.ts';

let server: TestServer | undefined;
let transport: Transport | undefined;
closeAfterEach(() => [transport, server]);

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('redaction', () => {
  test('a canary key sent as Authorization and echoed back in body, headers and stream appears nowhere in the exchange', async () => {
    const key = `sk-canary-${randomBytes(12).toString('hex')}`;
    const received: string[] = [];
    server = await startServer((req, res) => {
      req.resume();
      const auth = req.headers.authorization ?? '';
      received.push(auth);
      const echoed = auth.replace(/^Bearer /, '');
      const headers = { 'x-echo': echoed, 'x-echo-auth': auth, authorization: auth, 'set-cookie': `k=${echoed}` };
      if (req.url!.startsWith('/stream')) {
        res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
        res.end(`: ${echoed}\n\ndata: {"key":"${echoed}"}\n\ndata: [DONE]\n\n`);
      } else if (req.url!.startsWith('/text')) {
        res.writeHead(401, { ...headers, 'content-type': 'text/plain' });
        res.end(`invalid key ${echoed}`);
      } else {
        res.writeHead(401, { ...headers, 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `Authentication Fails, Your api key: ${echoed} is invalid`, type: 'authentication_error', [echoed]: 1 } }));
      }
    });
    const retried: string[] = [];
    transport = createTransport({ secrets: [key], concurrency: 2, retry: SPEC_RETRY_POLICY, onRetry: (i) => retried.push(JSON.stringify(i)) });
    const headers = { Authorization: `Bearer ${key}` };
    const body = { model: 'm', messages: [{ role: 'user', content: `Repeat: ${key}` }] };

    const json = await transport.send({ method: 'POST', url: `${server.url}/chat/completions?key=${key}`, headers, body });
    const echoedBody = (await json.json()) as { error: { message: string } };
    const text = await transport.send({ method: 'POST', url: `${server.url}/text`, headers, rawBody: `{"k":"${key}"` });
    await text.text();
    const stream = await transport.send({ method: 'POST', url: `${server.url}/stream`, headers, body: { ...body, stream: true } });
    const streamed: string[] = [];
    for await (const event of stream.events()) streamed.push(event.data);

    // The real key went out, and the caller sees what came back as it came back.
    expect(received).toEqual(Array(3).fill(`Bearer ${key}`));
    expect(echoedBody.error.message).toContain(key);
    expect(json.headers['x-echo']).toBe(key);
    expect(streamed[0]).toBe(`:${key}`);
    expect(streamed[1]).toContain(key);

    for (const exchange of [json.exchange, text.exchange, stream.exchange]) {
      const recorded = JSON.stringify(exchange);
      expect(recorded).not.toContain(key);
      expect(recorded).not.toContain(key.slice(3)); // not even without its prefix
      expect(recorded).toContain(REDACTED);
      expect(curlOf(exchange.request)).not.toContain(key);
    }
    expect(json.exchange.request.headers.Authorization).toBe(`Bearer ${REDACTED}`);
    expect(json.exchange.request.url).toBe(`${server.url}/chat/completions?key=${REDACTED}`);
    expect(json.exchange.response!.headers['x-echo']).toBe(REDACTED);
    expect(stream.exchange.response!.events!.map((e) => e.data)).toEqual([`:${REDACTED}`, `{"key":"${REDACTED}"}`, '[DONE]']);
    expect(retried).toEqual([]);
  });

  test('error messages are redacted too: a refused connection to a URL holding the key', async () => {
    const key = `sk-canary-${randomBytes(12).toString('hex')}`;
    transport = createTransport({ secrets: [key], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const err = await failure(transport.send({ method: 'GET', url: `http://127.0.0.1:${await deadPort()}/models?api_key=${key}` }));
    expect(isTransportError(err)).toBe(true);
    expect(String((err as Error).message)).not.toContain(key);
    expect(JSON.stringify((err as TransportError).exchange)).not.toContain(key);
  });
});

describe('network failures', () => {
  // Quickly: the bound is the test's timeout, shorter than the 30 s connect timeout a refusal must not wait for.
  test('connection refused: TransportError HARNESS_CONNECT, quickly, with the redacted URL in the message', async () => {
    const port = await deadPort();
    transport = createTransport({ secrets: ['sk-secret-1234'], concurrency: 1, retry: SPEC_RETRY_POLICY, timing: { connectMs: 30_000 } });
    const err = await failure(transport.send({ method: 'POST', url: `http://127.0.0.1:${port}/chat/completions?k=sk-secret-1234`, body: { model: 'm' } }));
    expect(err).toBeInstanceOf(TransportError);
    const error = err as TransportError;
    expect(isHarnessError(error)).toBe(true);
    expect(error.code).toBe('HARNESS_CONNECT');
    expect(error.message).toBe(`connection refused (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:${port} — POST http://127.0.0.1:${port}/chat/completions?k=${REDACTED}`);
    expect(error.exchange).toMatchObject({
      request: { method: 'POST', url: `http://127.0.0.1:${port}/chat/completions?k=${REDACTED}`, body: { model: 'm' } },
      attempts: 1,
      error: { code: 'HARNESS_CONNECT', message: error.message },
    });
    expect(error.exchange.response).toBeUndefined();
    expect(transport.stats().retries).toBe(0); // network failures are not retried
  }, 10_000);

  test('no response headers in time: HARNESS_TIMEOUT', async () => {
    server = await startServer((req) => {
      req.resume(); // and never answer
    });
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY, timing: { headersMs: 150 } });
    const err = await failure(transport.send({ method: 'GET', url: `${server.url}/models` }));
    expect(isTransportError(err) && err.code).toBe('HARNESS_TIMEOUT');
    expect((err as Error).message).toMatch(/^no response headers within 150 ms — GET /);
  });

  test('a body that stalls: HARNESS_TIMEOUT after what arrived', async () => {
    server = await startServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n'); // and nothing more
    });
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY, timing: { idleMs: 150 } });
    const res = await transport.send({ method: 'GET', url: `${server.url}/s` });
    const seen: string[] = [];
    const err = await failure(
      (async () => {
        for await (const event of res.events()) seen.push(event.data);
      })(),
    );
    expect(seen).toEqual(['1']);
    expect(isTransportError(err) && err.code).toBe('HARNESS_TIMEOUT');
    expect(res.exchange.response!.events!.map((e) => e.data)).toEqual(['1']);
  });

  test('an answer that is not HTTP: HARNESS_PROTOCOL', async () => {
    const raw = net.createServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH\r\n\r\n')));
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
      const err = await failure(transport.send({ method: 'GET', url: `http://127.0.0.1:${(raw.address() as net.AddressInfo).port}/` }));
      expect(isTransportError(err) && err.code).toBe('HARNESS_PROTOCOL');
    } finally {
      raw.close();
    }
  });

  test('the server hangs up before answering: HARNESS_RESET', async () => {
    server = await startServer((req) => {
      req.socket.destroy();
    });
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const err = await failure(transport.send({ method: 'GET', url: `${server.url}/models` }));
    expect(isTransportError(err) && err.code).toBe('HARNESS_RESET');
  });
});

describe('options and lifecycle', () => {
  test('bad options fail at construction, naming each one', () => {
    expect(() => createTransport({ secrets: [], concurrency: 0, retry: SPEC_RETRY_POLICY })).toThrow(/HARNESS|concurrency must be an integer >= 1, got 0/);
    try {
      createTransport({ secrets: [], concurrency: 1.5, retry: { ...SPEC_RETRY_POLICY, max_attempts: 0, jitter_seconds: { min: 2, max: 1 } }, timing: { idleMs: -1 } });
      expect.unreachable();
    } catch (err) {
      expect(isHarnessError(err) && err.code).toBe('HARNESS_CONFIG');
      expect((err as Error).message).toMatch(/concurrency .* 1\.5.*timing\.idleMs.*retry\.max_attempts.*retry\.jitter_seconds\.max/);
    }
  });

  test('body and rawBody together, or a relative URL, are harness bugs', async () => {
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    await expect(transport.send({ method: 'POST', url: 'http://127.0.0.1:1/', body: {}, rawBody: '{' })).rejects.toMatchObject({ code: 'HARNESS_CONFIG' });
    await expect(transport.send({ method: 'GET', url: '/models' })).rejects.toMatchObject({ code: 'HARNESS_CONFIG' });
    await expect(transport.send({ method: 'GET', url: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'HARNESS_CONFIG' });
  });

  test('a JSON body is sent with content-type application/json unless one is given; rawBody as it is', async () => {
    const seen: { type: string | undefined; body: string }[] = [];
    server = await startServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ type: req.headers['content-type'], body });
        res.writeHead(200).end('{}');
      });
    });
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const a = await transport.send({ method: 'POST', url: `${server.url}/a`, body: { x: 1 } });
    const b = await transport.send({ method: 'POST', url: `${server.url}/b`, body: { x: 1 }, headers: { 'Content-Type': 'text/plain' } });
    const c = await transport.send({ method: 'POST', url: `${server.url}/c`, rawBody: '{"x":', headers: { 'content-type': 'application/json' } });
    await Promise.all([a.text(), b.text(), c.text()]);
    expect(seen).toEqual([
      { type: 'application/json', body: '{"x":1}' },
      { type: 'text/plain', body: '{"x":1}' },
      { type: 'application/json', body: '{"x":' },
    ]);
    expect(a.exchange.request).toEqual({ method: 'POST', url: `${server.url}/a`, headers: { 'content-type': 'application/json' }, body: { x: 1 } });
    expect(c.exchange.request.rawBody).toBe('{"x":');
    expect(a.exchange.response).toMatchObject({ status: 200, body: {}, durationMs: expect.any(Number) });
  });

  test('after close(), send() fails with HARNESS_CLOSED', async () => {
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    await transport.close();
    await expect(transport.send({ method: 'GET', url: 'http://127.0.0.1:1/models' })).rejects.toMatchObject({ code: 'HARNESS_CLOSED' });
    await transport.close(); // twice is fine
  });

  test('close() ends a request in flight and the ones queued behind it with HARNESS_CLOSED', async () => {
    server = await startServer((req) => {
      req.resume(); // and never answer
    });
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const running = failure(transport.send({ method: 'GET', url: `${server.url}/a` }));
    const queued = failure(transport.send({ method: 'GET', url: `${server.url}/b` }));
    await pause(50);
    await transport.close();
    const errors = await Promise.race([Promise.all([running, queued]), pause(2000).then(() => ['hung'])]);
    expect(errors.map((e) => (isTransportError(e) ? e.code : e))).toEqual(['HARNESS_CLOSED', 'HARNESS_CLOSED']);
  });

  test('close() does not hang on a stream nobody reads', async () => {
    server = await startServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(': ping\n\n'), 10);
      res.on('close', () => clearInterval(timer));
    });
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    await transport.send({ method: 'GET', url: `${server.url}/s` });
    await pause(30);
    const closed = await Promise.race([transport.close().then(() => 'closed'), pause(2000).then(() => 'hung')]);
    expect(closed).toBe('closed');
  });
});

describe('a refused key', () => {
  test('once the first requests carrying the key are all answered 401, no other carrying it is sent; requests without it still are', async () => {
    const key = 'sk-refused-key-0123456789';
    const arrived: string[] = [];
    server = await startServer((req, res) => {
      req.resume();
      arrived.push(req.headers.authorization ?? '(none)');
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"invalid API key","type":"authentication_error"}}');
    });
    // Concurrency 1: the requests after the third wait in line and are refused there, unsent.
    transport = createTransport({ secrets: [key], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const withKey = () => failure(transport!.send({ method: 'GET', url: `${server!.url}/models`, headers: { authorization: `Bearer ${key}` } }).then((r) => r.text().then(() => r.status)));
    const answers = await Promise.all([1, 2, 3, 4, 5].map(withKey));
    expect(answers.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(answers.slice(3).map((e) => (e as TransportError).code)).toEqual(['HARNESS_KEY_REFUSED', 'HARNESS_KEY_REFUSED']);
    expect((answers[4] as Error).message).toBe(`not sent: the key was refused: every request carrying it was answered 401 (3 of 3) — GET ${server.url}/models`);
    expect((answers[4] as Error).message).not.toContain(key);
    expect(transport.keyRefused()).toEqual({ status: 401, count: 3 });
    // Refused at once, in line or not.
    expect(((await withKey()) as TransportError).code).toBe('HARNESS_KEY_REFUSED');
    // A request without the key (a check sending a wrong one on purpose) is still sent and answered.
    const wrong = await transport.send({ method: 'GET', url: `${server.url}/models`, headers: { authorization: 'Bearer sk-wrong' } });
    expect(wrong.status).toBe(401);
    await wrong.text();
    expect(arrived).toEqual([`Bearer ${key}`, `Bearer ${key}`, `Bearer ${key}`, 'Bearer sk-wrong']);
  });
});

describe('a dead endpoint ends quickly', () => {
  test('a refused endpoint: nothing more is sent, the rest fail at once citing the first cause', async () => {
    const port = await deadPort();
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const url = `http://127.0.0.1:${port}`;
    const errs = [];
    for (const path of ['/chat/completions', '/models', '/chat/completions', '/user/balance']) errs.push(await failure(transport.send({ method: 'GET', url: `${url}${path}` })));
    // The first refusal makes the transport probe the server's root, which is refused too; once a
    // second route got no answer, the endpoint is down.
    expect((errs[0] as TransportError).code).toBe('HARNESS_CONNECT');
    expect((errs[3] as TransportError).code).toBe('HARNESS_UNRESPONSIVE');
    expect((errs[3] as Error).message).toMatch(/^not sent: the endpoint was declared unresponsive: 2 routes got no answer \(GET \/chat\/completions, GET \/models\), and a probe of http:\/\/127\.0\.0\.1:\d+\/ failed: HARNESS_CONNECT: connection refused .* — GET http:\/\/127\.0\.0\.1:\d+\/user\/balance$/);
    // a refused probe is said as refused: it did not wait out a timeout
    expect((errs[3] as Error).message).not.toMatch(/got none within/);
    expect(transport.stats().requests).toBeLessThanOrEqual(3);
  });

  test('requests waiting in line for a slot are not sent once the endpoint is declared', async () => {
    const arrived: string[] = [];
    server = await startServer((req) => {
      arrived.push(req.url ?? '');
      req.resume(); // and never answer
    });
    transport = createTransport({ secrets: [], concurrency: 3, retry: SPEC_RETRY_POLICY, timing: { headersMs: 1000 } });
    const paths = ['/a', '/b', '/c', '/d', '/e', '/f', '/g', '/h', '/i'];
    const errs = await Promise.all(paths.map((p) => failure(transport!.send({ method: 'GET', url: `${server!.url}${p}` }))));
    // Three waves of timeouts without the judgement; with it, the first wave's timeout and the probe
    // of the root, which gets no answer either: the second wave is abandoned, the third never sent
    // (counted, not timed).
    expect(arrived.filter((p) => ['/g', '/h', '/i'].includes(p))).toEqual([]);
    const codes = errs.map((e) => (e as TransportError).code);
    expect(codes.slice(0, 3)).toEqual(['HARNESS_TIMEOUT', 'HARNESS_TIMEOUT', 'HARNESS_TIMEOUT']);
    expect(codes.at(-1)).toBe('HARNESS_UNRESPONSIVE');
    expect((errs.at(-1) as Error).message).toMatch(/^(not sent|abandoned): the endpoint was declared unresponsive: 3 routes got no answer \(GET \/[abc], GET \/[abc], GET \/[abc]\), and a probe of http:\/\/127\.0\.0\.1:\d+\/ got no answer within 1000 ms/);
  });

  test('a server that hangs on one path but answers its root is not declared down: only that path stops', async () => {
    let rootAnswered = false;
    server = await startServer((req, res) => {
      req.resume();
      if (req.url === '/') res.writeHead(404).end(() => (rootAnswered = true));
      if (req.url === '/fine') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    // 1 s: the hang's timeout, and the probe's, which a loaded machine must still answer within.
    transport = createTransport({ secrets: [], concurrency: 4, retry: SPEC_RETRY_POLICY, timing: { headersMs: 1000 } });
    const hung = await Promise.all([1, 2, 3].map(() => failure(transport!.send({ method: 'GET', url: `${server!.url}/hang` }))));
    // The first timeout declares the route: the two waiting with it are abandoned, not waited out again.
    expect(hung.map((e) => (e as TransportError).code).sort()).toEqual(['HARNESS_TIMEOUT', 'HARNESS_UNRESPONSIVE', 'HARNESS_UNRESPONSIVE']);
    while (!rootAnswered) await pause(10); // the probe of / has its answer (a 404: the server is up)
    await pause(50);
    expect((await failure(transport.send({ method: 'GET', url: `${server.url}/hang` })) as TransportError).code).toBe('HARNESS_UNRESPONSIVE');
    expect((await transport.send({ method: 'GET', url: `${server.url}/fine` })).status).toBe(200);
  });

  test('a 500 is asked again once: the same 500 again is the answer, and these retries draw on one budget for the run', async () => {
    let seen = 0;
    server = await startServer((req, res) => {
      req.resume();
      seen++;
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"down","type":"server_error"}}');
    });
    const waits: number[] = [];
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY, retryBudget: 3, sleep: async (ms) => void waits.push(ms), random: () => 0 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await transport.send({ method: 'GET', url: `${server.url}/chat/completions` })).status);
    expect(statuses).toEqual([500, 500, 500, 500]);
    // Three requests confirmed their 500 once each (the policy's first wait); the fourth found the budget spent.
    expect(waits).toEqual([1000, 1000, 1000]);
    expect(seen).toBe(4 + 3);
  });

  test('any HTTP answer is evidence, never silence: 500 and 501 to everything declare nothing', async () => {
    server = await startServer((req, res) => {
      req.resume();
      res.writeHead(req.method === 'POST' ? 501 : 500, { 'content-type': 'text/html' }).end('<h1>no</h1>');
    });
    transport = createTransport({ secrets: [], concurrency: 2, retry: SPEC_RETRY_POLICY, sleep: async () => undefined });
    const statuses = [];
    for (let i = 0; i < 8; i++) for (const method of ['GET', 'POST'] as const) statuses.push((await transport.send({ method, url: `${server.url}/p${i % 3}`, ...(method === 'POST' ? { body: {} } : {}) })).status);
    expect(statuses).toEqual(Array.from({ length: 8 }, () => [500, 501]).flat());
  });
});

describe('every exchange ends in bounded time', () => {
  /** A body that trickles a byte every 50 ms and never ends: never idle long enough for the idle timeout. */
  async function tricklingServer(): Promise<void> {
    server = await startServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(t));
    });
  }

  test('a body that trickles past its deadline ends with HARNESS_TIMEOUT, and its route is not waited on again', async () => {
    await tricklingServer();
    transport = createTransport({ secrets: [], concurrency: 2, retry: SPEC_RETRY_POLICY, timing: { totalMs: 300 } });
    const res = await transport.send({ method: 'GET', url: `${server!.url}/models` });
    const err = await failure(res.text());
    expect(isTransportError(err) && err.code).toBe('HARNESS_TIMEOUT');
    expect((err as Error).message).toMatch(/^the body did not end within 300 ms of its headers \(the exchange's deadline\)/);
    const next = await failure(transport.send({ method: 'GET', url: `${server!.url}/models` }));
    expect((next as TransportError).code).toBe('HARNESS_UNRESPONSIVE');
    expect((next as Error).message).toMatch(/^not sent: GET \/models was declared unresponsive: a request waited its whole timeout: HARNESS_TIMEOUT/);
  });

  test('the deadline follows what the request asks for: few tokens, a short deadline', () => {
    expect(bodyDeadlineMs(DEFAULT_TIMING, { max_tokens: 16 })).toBe(31_600);
    expect(bodyDeadlineMs(DEFAULT_TIMING, { max_tokens: 100_000 })).toBe(DEFAULT_TIMING.totalMs);
    expect(bodyDeadlineMs(DEFAULT_TIMING, undefined)).toBe(30_000);
  });

  test('the run\'s stop (abandon): a body in flight ends at once with HARNESS_INTERRUPTED, and nothing more is sent', async () => {
    await tricklingServer();
    const abandon = new AbortController();
    transport = createTransport({ secrets: [], concurrency: 2, retry: SPEC_RETRY_POLICY, abandon: abandon.signal });
    const res = await transport.send({ method: 'GET', url: `${server!.url}/models` });
    const reading = failure(res.text());
    abandon.abort(new Error('SIGTERM'));
    const err = await reading;
    expect(isTransportError(err) && err.code).toBe('HARNESS_INTERRUPTED');
    expect((err as Error).message).toMatch(/^abandoned: the run was stopped \(SIGTERM\)/);
    expect((await failure(transport.send({ method: 'GET', url: `${server!.url}/other` })) as TransportError).code).toBe('HARNESS_INTERRUPTED');
  });

  test('the run\'s stop during a retry wait ends the request now, not after the wait', async () => {
    server = await startServer((req, res) => {
      req.resume();
      res.writeHead(503).end('{}');
    });
    const abandon = new AbortController();
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY, abandon: abandon.signal });
    const pending = failure(transport.send({ method: 'GET', url: `${server.url}/models` }));
    await pause(200); // the 503 is in, its 30 s wait begun
    abandon.abort(new Error('SIGINT'));
    expect((await pending) as TransportError).toMatchObject({ code: 'HARNESS_INTERRUPTED' });
  });
});

describe('a request whose first answer is final (final: true)', () => {
  test('a 429 is handed back at once, not waited out, and the limit does not come down for it; a plain request after it is waited out as ever', async () => {
    let n = 0;
    server = await startServer((req, res) => {
      req.resume();
      n += 1;
      // The first request (final) and the first try of the second get a 429; the second's retry is answered.
      if (n <= 2) res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"error":{"message":"slow down","type":"rate_limit_error"}}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    transport = createTransport({ secrets: [], concurrency: 4, maxConcurrency: 16, retry: SPEC_RETRY_POLICY, random: () => 0, sleep: async () => undefined });
    const asked = await transport.send({ method: 'POST', url: `${server.url}/chat/completions`, body: {}, final: true });
    expect(asked.status).toBe(429);
    expect(asked.exchange.attempts).toBe(1);
    expect(transport.stats().concurrency.decreases).toBe(0);
    const waited = await transport.send({ method: 'POST', url: `${server.url}/chat/completions`, body: {} });
    expect(waited.status).toBe(200);
    expect(transport.stats().concurrency.decreases).toBe(1);
  });
});

describe('a cap shared by the transports of a run\'s targets (runCap)', () => {
  test('never more requests in flight across them than the cap, whatever each one\'s own limit', async () => {
    let inFlight = 0;
    let peak = 0;
    server = await startServer((req, res) => {
      req.resume();
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }, 50);
    });
    const runCap = new Semaphore(3);
    const [a, b] = [0, 1].map(() => createTransport({ secrets: [], concurrency: 4, retry: SPEC_RETRY_POLICY, runCap }));
    try {
      const sent = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a! : b!).send({ method: 'POST', url: `${server!.url}/chat/completions`, body: { i } }).then((r) => r.text()));
      await Promise.all(sent);
      expect(peak).toBe(3);
      expect(runCap.active).toBe(0);
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });
});
