import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Exchange } from '#harness/core/exchange.ts';
import { toFixtureExchange, type Fixture, type FixtureManifest } from './fixtureFormat.ts';
import { handlersOf, recordedHandlers } from './handlersOf.ts';
import { REPLAY_KEYS } from './requestKey.ts';

const BASE = 'https://api.example.test/v1';
const manifest: FixtureManifest = { schemaVersion: 1, recordedAt: '2026-06-01T00:00:00.000Z', clock: '2026-06-01T00:00:00.000Z', spec: { revision: 'r' }, harness: { version: '0' }, baseUrl: BASE, messagesBasePath: '/anthropic', emptyBalanceKey: false };
const body = (content: string) => ({ model: 'm', messages: [{ role: 'user', content }] });
const chat = (content: string, status = 200): Exchange => ({
  request: { method: 'POST', url: `${BASE}/chat/completions`, headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' }, body: body(content) },
  response: { status, headers: { 'content-type': 'application/json' }, body: { object: 'chat.completion', content }, durationMs: 12 },
  attempts: 1,
});
const recording = (...exchanges: Exchange[]): Fixture => ({ manifest, exchanges: exchanges.map((e) => toFixtureExchange(e, BASE, 0)) });
const post = (content: string) => new Request(`${BASE}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${REPLAY_KEYS[0]}`, 'content-type': 'application/json' }, body: JSON.stringify(body(content)) });

describe('handlersOf: a recording as MSW handlers', () => {
  const server = setupServer();
  afterEach(() => {
    server.close();
    vi.restoreAllMocks();
  });

  test('one handler per recorded exchange, usable in an app test: setupServer answers the recorded request, the rest goes to onUnhandledRequest', async () => {
    const handlers = handlersOf(recording(chat('hi'), chat('bye')), { baseUrl: BASE });
    expect(handlers).toHaveLength(2);
    const unhandled: string[] = [];
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(...handlers);
    server.listen({
      onUnhandledRequest: (request, print) => {
        unhandled.push(`${request.method} ${request.url}`);
        print.error();
      },
    });
    const res = await fetch(post('hi'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ object: 'chat.completion', content: 'hi' });
    await expect(fetch(`${BASE}/models`, { headers: { authorization: `Bearer ${REPLAY_KEYS[0]}` } })).rejects.toThrow();
    expect(unhandled).toEqual([`GET ${BASE}/models`]);
  });

  test('a request outside the base URL is not the recorded one', async () => {
    const handlers = handlersOf(recording(chat('hi')), { baseUrl: BASE });
    expect(await getResponse(handlers, new Request('https://elsewhere.test/v1/chat/completions', post('hi')))).toBeUndefined();
    expect((await getResponse(handlers, post('hi')))?.status).toBe(200);
  });

  test('concurrent requests for a repeated exchange take its answers in turn, never the same one twice', async () => {
    const handlers = handlersOf(recording(chat('a'), chat('a', 429), chat('a', 503)), { baseUrl: BASE });
    const statuses = await Promise.all([1, 2, 3, 4].map(async () => (await getResponse(handlers, post('a')))?.status));
    expect(statuses.sort()).toEqual([200, 429, 503, 503]);
  });

  test('recordedHandlers: the same handlers in the same order, each with its key; those keyed by an auth form first', () => {
    const rec = recording(chat('a'), chat('b'));
    rec.exchanges[1]!.key.auth = 'bearer';
    const keyed = recordedHandlers(rec);
    expect(keyed.map((r) => r.key)).toEqual([rec.exchanges[1]!.key, rec.exchanges[0]!.key]);
    expect(handlersOf(rec)).toHaveLength(keyed.length);
  });
});
