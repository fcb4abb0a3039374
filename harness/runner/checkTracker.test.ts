import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { startServer, SPEC_RETRY_POLICY, type TestServer } from '#harness/testing/httpTestServer.ts';
import { createTransport, type Transport } from '#harness/transport/index.ts';
import { CheckTracker } from './checkTracker.ts';
import { Meter } from './spend/meter.ts';

const { spec } = loadSpec();
const USAGE = { prompt_tokens: 8, completion_tokens: 400, total_tokens: 408, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 8 };
const chunk = (delta: object, extra: object = {}) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta }], ...extra })}\n\n`;

let server: TestServer;
let transport: Transport;

beforeAll(async () => {
  server = await startServer((req, res) => {
    req.resume();
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'c1', usage: USAGE }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < 400; i++) res.write(chunk({ content: 'word ' }));
    res.write(chunk({}, { usage: USAGE }));
    res.end('data: [DONE]\n\n');
  });
  // A recording cap far below the stream: the exchange keeps its first events only.
  transport = createTransport({ secrets: [], concurrency: 2, retry: SPEC_RETRY_POLICY, maxRecordedBytes: 4096 });
});

afterAll(async () => {
  await transport.close();
  await server.close();
});

const send = (r: Parameters<Transport['send']>[0]) => transport.send(r);

describe('CheckTracker', () => {
  test('a stream whose usage arrives after the recording cap is still counted, and spent', async () => {
    // A budget of one pico-dollar: any priced token reaches it.
    const meter = new Meter(spec, { limitUsd: '0.000000000001', pricedAt: '2026-06-01T00:00:00Z' });
    const tracker = new CheckTracker(meter, spec);
    const res = await tracker.wrap({ method: 'POST', url: `${server.url}/stream`, body: { stream: true } }, send, 'svc-v4-flash');
    let events = 0;
    for await (const _ of res.events()) events++;
    expect(events).toBe(402);
    expect(res.exchange.response?.truncated).toBe(true);
    expect(res.exchange.response?.events?.some((e) => e.data.includes('"usage"'))).toBe(false);
    expect(tracker.settle()).toEqual({ promptTokens: 8, completionTokens: 400, cacheHitTokens: 0 });
    expect(meter.reached()).toBe(true);
  });

  test('a body is counted once however it is read; a body never read counts nothing', async () => {
    const tracker = new CheckTracker();
    const read = await tracker.wrap({ method: 'POST', url: `${server.url}/json`, body: {} }, send, 'svc-v4-flash');
    await read.text();
    await read.json();
    await tracker.wrap({ method: 'POST', url: `${server.url}/json`, body: {} }, send, 'svc-v4-flash');
    expect(tracker.settle()).toEqual({ promptTokens: 8, completionTokens: 400, cacheHitTokens: 0 });
    expect(tracker.requests).toBe(2);
  });
});
