/**
 * Requests per second against the emulator over real loopback sockets, beside a bare node:http
 * server that answers the very same bytes (the ceiling: what node:http and the client cost alone).
 * One request in flight at a time, on one keep-alive connection (undici Agent).
 *
 * The ceiling's bodies are recorded from the emulator itself before the benches start, so both
 * sides move the same number of bytes: a non-streamed completion as one JSON body, and a stream as
 * the same SSE events written back to back.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, bench, describe } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { startEmulator } from '#harness/emulator/index.ts';

const { spec } = loadSpec();

const emulator = await startEmulator({
  spec,
  apiKeys: ['sk-bench'],
  now: () => new Date('2026-06-01T00:00:00Z'),
  // Enough balance that no bench run can spend it: every request stays a 200.
  balance: { currency: 'USD', granted: '1000000', toppedUp: '0' },
});

const agent = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
const headers = { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' };
// A short prompt (under the 64-token cache minimum, so the prompt cache stays empty) and the
// generator's own answer: about 600 bytes of completion body.
const plain = JSON.stringify({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'Tell me something' }] });
const streamed = JSON.stringify({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'Tell me something' }], stream: true });

async function post(url: string, body: string): Promise<string> {
  const res = await request(url, { method: 'POST', headers, body, dispatcher: agent });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return text;
}

// The bytes the ceiling serves: recorded from the emulator.
const completionBody = await post(`${emulator.url}/chat/completions`, plain);
const streamBody = await post(`${emulator.url}/chat/completions`, streamed);
const streamEvents = streamBody.split(/(?<=\n\n)/);

const bare: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      for (const event of streamEvents) res.write(event);
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completionBody);
    }
  });
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

afterAll(async () => {
  await emulator.close();
  await new Promise<void>((resolve) => {
    bare.close(() => resolve());
    bare.closeAllConnections();
  });
  await agent.close();
});

// Short runs, so `npm run bench` stays well under a minute.
const options = { time: 1000, warmupTime: 200, warmupIterations: 20 };

describe(`non-streamed chat completion (${completionBody.length} bytes), one request in flight`, () => {
  bench('bare node:http, same fixed body (the ceiling)', async () => {
    await post(`${bareUrl}/chat/completions`, plain);
  }, options);
  bench('emulator', async () => {
    await post(`${emulator.url}/chat/completions`, plain);
  }, options);
});

describe(`streamed chat completion (${streamEvents.length} SSE events, ${streamBody.length} bytes), read to [DONE]`, () => {
  bench('bare node:http, same events written back to back (the ceiling)', async () => {
    await post(`${bareUrl}/stream`, streamed);
  }, options);
  bench('emulator', async () => {
    await post(`${emulator.url}/chat/completions`, streamed);
  }, options);
});
