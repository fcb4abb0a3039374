import { afterEach, describe, expect, test } from 'vitest';
import { closeAfterEach } from '#harness/testing/closeAfterEach.ts';
import { stepsOf } from '#harness/core/load.ts';
import { SPEC_RETRY_POLICY, pause, startServer, type TestServer } from '#harness/testing/httpTestServer.ts';
import { createTransport } from './createTransport.ts';
import type { Transport } from './types.ts';

/**
 * The load phase's requests (`load: true`): outside the run's limit (the phase sets its own
 * requests in flight, and a limit would hide the overload it looks for), the adaptive limit left as
 * it was, and a 429 judged as it came, never waited out.
 */
let server: TestServer | undefined;
let transport: Transport | undefined;
closeAfterEach(() => [transport, server]);

describe('a load-phase request', () => {
  test('holds no slot of the limit: eight at once with a limit of one', async () => {
    let inFlight = 0;
    let peak = 0;
    server = await startServer(async (req, res) => {
      req.resume();
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await pause(50);
      inFlight -= 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    transport = createTransport({ secrets: [], concurrency: 1, maxConcurrency: 16, retry: SPEC_RETRY_POLICY });
    const answers = await Promise.all(Array.from({ length: 8 }, () => transport!.send({ method: 'POST', url: `${server!.url}/chat/completions`, body: {}, load: true })));
    for (const a of answers) await a.text();
    expect(peak).toBe(8);
    // The adaptive limit saw none of them: it is where it started.
    expect(transport.stats().concurrency.limit).toBe(1);
  });

  test('a 429 is its answer, never waited out, and moves no limit', async () => {
    let asked = 0;
    server = await startServer((req, res) => {
      req.resume();
      asked += 1;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"error":{"message":"busy","type":"rate_limit_error","code":"rate_limit","param":null}}');
    });
    transport = createTransport({ secrets: [], concurrency: 4, maxConcurrency: 16, retry: SPEC_RETRY_POLICY });
    const res = await transport.send({ method: 'POST', url: `${server.url}/chat/completions`, body: {}, load: true });
    await res.text();
    expect([res.status, asked, res.exchange.attempts]).toEqual([429, 1, 1]);
    expect(transport.stats().concurrency.decreases).toBe(0);
  });
});

describe('the steps of a load phase', () => {
  test('1, a quarter, a half and all of N, ascending without repeats', () => {
    expect(stepsOf(64)).toEqual([1, 16, 32, 64]);
    expect(stepsOf(16)).toEqual([1, 4, 8, 16]);
    expect(stepsOf(3)).toEqual([1, 2, 3]);
    expect(stepsOf(1)).toEqual([1]);
    expect(stepsOf(0)).toEqual([]);
  });
});
