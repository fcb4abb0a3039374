import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveFetch, type FetchServer } from '#harness/core/http/fetchBridge.ts';
import { createApp } from '#harness/emulator/app.ts';
import { createContext } from '#harness/emulator/context.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { marked, markerFor } from '#harness/core/marker.ts';

let sent = 0;
/** A marker no other request of this file carries. */
const newMarker = () => markerFor('tap.test', sent++);
import { tapped, type UpstreamLog } from './tap.ts';

/** The embedded emulator as a gateway's upstream, tapped: what arrived and what left, whole. */
const KEY = 'sk-upstream-secret-key';
let server: FetchServer;
let log: UpstreamLog;

beforeAll(async () => {
  const { spec } = loadSpec();
  const app = createApp(createContext({ spec, apiKeys: [KEY], now: () => new Date("2026-06-01T00:00:00Z") }));
  const tap = tapped((request) => app(request), { secrets: [KEY] });
  log = tap.log;
  server = await serveFetch(tap.handle, { failure: () => new Response('failed', { status: 500 }) });
});
afterAll(async () => server.close());

const post = (body: unknown) => fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const request = { model: 'svc-v4-flash', messages: [{ role: 'user', content: 'Say hello in five words.' }], max_tokens: 16 };

describe('the tap between a gateway and its upstream', () => {
  test('a plain answer: recorded under its marker, request and answer whole, the key nowhere', async () => {
    const marker = newMarker();
    const res = await post(marked(request, marker));
    const seen = await res.json();
    await log.settled();
    const [exchange, ...more] = log.byMarker(marker);
    expect(more).toEqual([]);
    expect(exchange!.request).toMatchObject({ method: 'POST', path: '/chat/completions' });
    expect(JSON.parse(exchange!.response.body)).toEqual(seen);
    expect(exchange!.response.status).toBe(200);
    expect(JSON.stringify(log.all())).not.toContain(KEY);
    expect(exchange!.request.headers.authorization).toBe('Bearer [REDACTED]');
  });

  test('a stream: the client reads every event, and the log holds the same bytes', async () => {
    const marker = newMarker();
    const res = await post(marked({ ...request, stream: true }, marker));
    const client = await res.text();
    await log.settled();
    const [exchange] = log.byMarker(marker);
    expect(client).toContain('data: [DONE]');
    expect(exchange!.response.body).toBe(client);
  });

  test('two requests, two markers: each answer paired with its own request, never by timing', async () => {
    const [a, b] = [newMarker(), newMarker()];
    await Promise.all([post(marked(request, a)).then((r) => r.text()), post(marked(request, b)).then((r) => r.text())]);
    await log.settled();
    expect(log.byMarker(a)).toHaveLength(1);
    expect(log.byMarker(b)).toHaveLength(1);
    expect(log.byMarker(a)[0]!.request.body).toContain(a);
  });
});

describe('the emulator as an upstream answers a marked request as the client asked it', () => {
  test('the same answer with the marker and without it (the marker is taken out before it answers)', async () => {
    const ask = { ...request, messages: [{ role: 'user', content: 'Repeat: alpha beta STOP gamma delta' }], temperature: 0 };
    const plain = (await (await post(ask)).json()) as { choices: { message: { content: string } }[] };
    const markedAnswer = (await (await post(marked(ask, newMarker()))).json()) as { choices: { message: { content: string } }[] };
    expect(markedAnswer.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
    expect(markedAnswer.choices[0]!.message.content).not.toContain('svc-mark');
  });
});
