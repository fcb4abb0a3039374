import { afterEach, describe, expect, test } from 'vitest';
import { closeAfterEach } from '#harness/testing/closeAfterEach.ts';
import { createTransport } from '../createTransport.ts';
import { SPEC_RETRY_POLICY, pause, startServer, type TestServer } from '#harness/testing/httpTestServer.ts';
import type { Transport } from '../types.ts';

let server: TestServer | undefined;
let transport: Transport | undefined;
closeAfterEach(() => [transport, server]);

/** A server that holds each request `holdMs` and counts how many it holds at once. */
async function holdingServer(holdMs: number): Promise<{ peak: () => number; total: () => number }> {
  let active = 0;
  let peak = 0;
  let total = 0;
  server = await startServer((req, res) => {
    active += 1;
    total += 1;
    peak = Math.max(peak, active);
    req.resume();
    setTimeout(() => {
      active -= 1; // before end(): the client may send its next request the moment this one ends
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ n: total }));
    }, holdMs);
  });
  return { peak: () => peak, total: () => total };
}

describe('limit: requests in flight', () => {
  test('20 requests, held 50 ms each, concurrency 3: the server never sees more than 3 at once', async () => {
    const seen = await holdingServer(50);
    transport = createTransport({ secrets: [], concurrency: 3, retry: SPEC_RETRY_POLICY });
    const bodies = await Promise.all(
      Array.from({ length: 20 }, async () => (await transport!.send({ method: 'GET', url: `${server!.url}/models` })).json()),
    );
    expect(bodies).toHaveLength(20);
    expect(seen.total()).toBe(20);
    expect(seen.peak()).toBe(3);
    // 3 at once and never more: the limit queues, it does not serialise (a peak of 1 would).
    expect(transport.stats()).toMatchObject({ maxInFlight: 3, requests: 20, retries: 0, concurrency: { adaptive: false, limit: 3, reached: 3 } });
  });

  test('adaptive: a server that answers 429 above 6 in flight is met where it is, and every request ends answered', async () => {
    let active = 0;
    let peakTaken = 0;
    let refused = 0;
    server = await startServer((req, res) => {
      req.resume();
      if (active >= 6) {
        refused += 1;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end('{"error":{"message":"too many requests in flight"}}');
        return;
      }
      active += 1;
      peakTaken = Math.max(peakTaken, active);
      setTimeout(() => {
        active -= 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      }, 120);
    });
    transport = createTransport({ secrets: [], concurrency: 2, maxConcurrency: 16, retry: SPEC_RETRY_POLICY, sleep: () => pause(150) });
    const statuses = await Promise.all(Array.from({ length: 120 }, async () => (await transport!.send({ method: 'GET', url: `${server!.url}/models` })).status));
    expect(statuses).toEqual(Array(120).fill(200));
    const { concurrency } = transport.stats();
    expect(peakTaken).toBe(6); // it grew from 2 to what the server takes...
    expect(refused).toBeGreaterThan(0); // ...found the server's limit...
    expect(concurrency.decreases).toBeGreaterThan(0); // ...and came down on it
    expect(concurrency.reached).toBeLessThanOrEqual(6);
    expect(concurrency.reached).toBeGreaterThanOrEqual(4);
  });

  test('a limit that came down while requests waited to be asked again holds their retries too', async () => {
    let seen = 0;
    let active = 0;
    let peakOfRetries = 0;
    server = await startServer((req, res) => {
      req.resume();
      seen += 1;
      if (seen <= 8) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{}');
        return;
      }
      active += 1;
      peakOfRetries = Math.max(peakOfRetries, active);
      setTimeout(() => {
        active -= 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }, 50);
    });
    transport = createTransport({ secrets: [], concurrency: 8, maxConcurrency: 16, retry: SPEC_RETRY_POLICY, sleep: () => pause(20) });
    const statuses = await Promise.all(Array.from({ length: 8 }, async () => (await transport!.send({ method: 'GET', url: `${server!.url}/models` })).status));
    expect(statuses).toEqual(Array(8).fill(200));
    // All eight were turned away at once: the limit halved, and the eight retries went four at a time.
    expect(transport.stats().concurrency.limit).toBe(4);
    expect(peakOfRetries).toBe(4);
  });

  test('bodies nobody reads still give their slots back: no deadlock', async () => {
    const seen = await holdingServer(5);
    transport = createTransport({ secrets: [], concurrency: 2, retry: SPEC_RETRY_POLICY });
    const results = await Promise.all(Array.from({ length: 10 }, () => transport!.send({ method: 'GET', url: `${server!.url}/models` })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(seen.total()).toBe(10);
    expect(transport.stats().maxInFlight).toBe(2);
  });

  test('a body nobody reads that never ends (or is huge) is dropped past the pause size: its slot comes back', async () => {
    server = await startServer((req, res) => {
      req.resume();
      res.writeHead(400, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const first = await transport.send({ method: 'POST', url: `${server.url}/chat/completions`, body: {} });
    expect(first.status).toBe(400);
    // Concurrency 1: this waits for the first request's slot, which only its dropped body gives back.
    const second = await transport.send({ method: 'POST', url: `${server.url}/chat/completions`, body: {} });
    expect(second.status).toBe(400);
    // A late reader still gets what was queued, cut at the recording cap.
    expect((await first.text()).length).toBe(1024 * 1024);
    expect(first.exchange.response!.truncated).toBe(true);
  });

  test('a stream holds its slot until it ends; a reader that stops early frees it', async () => {
    let streams = 0;
    server = await startServer((req, res) => {
      req.resume();
      if (req.url === '/stream') {
        streams += 1;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let n = 0;
        const timer = setInterval(() => {
          n += 1;
          res.write(`data: ${n}\n\n`);
          if (n === 3) {
            clearInterval(timer);
            res.end('data: [DONE]\n\n');
          }
        }, 30);
        res.on('close', () => clearInterval(timer));
        return;
      }
      res.writeHead(200).end('{}');
    });
    transport = createTransport({ secrets: [], concurrency: 1, retry: SPEC_RETRY_POLICY });
    const stream = await transport.send({ method: 'POST', url: `${server.url}/stream`, body: {} });
    let otherDone = false;
    const other = transport.send({ method: 'GET', url: `${server.url}/models` }).then(async (r) => {
      otherDone = true;
      return r.text();
    });
    const data: string[] = [];
    for await (const event of stream.events()) {
      data.push(event.data);
      expect(otherDone).toBe(false);
    }
    expect(data).toEqual(['1', '2', '3', '[DONE]']);
    expect(await other).toBe('{}');

    // Break after the first event: the stream is cancelled and the next request goes through.
    const endless = await transport.send({ method: 'POST', url: `${server.url}/stream`, body: {} });
    for await (const event of endless.events()) {
      expect(event.data).toBe('1');
      break;
    }
    const after = await Promise.race([transport.send({ method: 'GET', url: `${server.url}/models` }).then((r) => r.status), pause(2000).then(() => 'stuck')]);
    expect(after).toBe(200);
    expect(streams).toBe(2);
    expect(transport.stats().maxInFlight).toBe(1);
  });
});
