import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Exchange } from '#harness/core/exchange.ts';
import { NOT_CAPTURED_HEADER } from '#harness/core/notCaptured.ts';
import { getResponse } from 'msw';
import { bodyHash, canonicalBody, canonicalJson, fixtureRecorder, readFixture, relativePath, toFixtureExchange, writeManifest, type FixtureExchange, type FixtureManifest } from './fixtureFormat.ts';
import { handlersOf } from './handlersOf.ts';
import { NOT_RECORDED_STATUS } from './notRecorded.ts';
import { startReplayServer } from './replayServer.ts';
import { REPLAY_KEYS } from './requestKey.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { createAjv } from '#harness/core/createAjv.ts';

const tmp = tempDirs('svc-replay-');

const BASE = 'http://127.0.0.1:9999';
const chat = (content: string): Exchange => ({
  request: { method: 'POST', url: `${BASE}/chat/completions`, headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json', host: 'x' }, body: { model: 'm', messages: [{ role: 'user', content }] } },
  response: { status: 200, headers: { 'content-type': 'application/json', 'content-length': '20' }, body: { object: 'chat.completion', content }, durationMs: 12 },
  attempts: 1,
});

/** A chat exchange of `model`, for the tests where the model is what matters. */
const chatOf = (model: string, content: string): Exchange => {
  const ex = chat(content);
  return { ...ex, request: { ...ex.request, body: { model, messages: [{ role: 'user', content }] } } };
};

function validator() {
  return createAjv().compile(JSON.parse(readFileSync(new URL('../../fixtures/fixture.schema.json', import.meta.url), 'utf8')) as object);
}

describe('the fixture format', () => {
  test('canonical JSON sorts keys at every depth; the canonical body ignores key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 0 } }, 0)).toBe('{"a":{"c":0,"d":[{"y":2,"z":1}]},"b":1}');
    expect(canonicalBody({ body: { b: 1, a: 2 } })).toBe(canonicalBody({ body: { a: 2, b: 1 } }));
    expect(canonicalBody({ rawBody: '{"a":' })).toBe('raw:{"a":');
    // Bytes that are JSON match as JSON, as a replayed request's bytes are read (a JSON array sent as the body).
    expect(canonicalBody({ rawBody: '[{"b":1,"a":2}]' })).toBe(canonicalBody({ body: [{ a: 2, b: 1 }] }));
    expect(canonicalBody({})).toBe('');
  });

  test('paths are relative to the base; a URL elsewhere is not', () => {
    expect(relativePath(`${BASE}/v1/models?x=1`, `${BASE}/`)).toBe('/v1/models?x=1');
    expect(relativePath('http://other/x', BASE)).toBeUndefined();
  });

  test('an exchange is stored without hop headers or timings, and the files satisfy the schema', () => {
    const fx = toFixtureExchange(chat('hi'), BASE, 0);
    expect(fx.request.headers).toEqual({ authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' });
    expect(fx.response).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: { object: 'chat.completion', content: 'hi' } });
    expect(fx.key).toEqual({ method: 'POST', path: '/chat/completions', secret: 0, bodyHash: bodyHash(canonicalBody(fx.request)) });
    const dir = tmp();
    writeManifest(dir, { schemaVersion: 1, recordedAt: '2026-06-01T00:00:00.000Z', clock: '2026-06-01T00:00:00.000Z', spec: { revision: 'r' }, harness: { version: '0' }, baseUrl: BASE, messagesBasePath: '/anthropic', emptyBalanceKey: false });
    const record = fixtureRecorder(dir, BASE);
    const ex = chat('hi');
    record(ex, { secret: 0 });
    record(ex, { secret: 0 }); // the same exchange again (completed): the same file, rewritten
    record(chat('again'), {});
    const { manifest, exchanges } = readFixture(dir);
    expect(exchanges).toHaveLength(2);
    expect(exchanges[1]!.key.secret).toBeNull();
    const validate = validator();
    for (const doc of [manifest, ...exchanges]) expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe('matching', () => {
  const fx = (content: string, secret: number | null = 0): FixtureExchange => toFixtureExchange(chat(content), BASE, secret ?? undefined);
  const manifest: FixtureManifest = { schemaVersion: 1, recordedAt: '2026-06-01T00:00:00.000Z', clock: '2026-06-01T00:00:00.000Z', spec: { revision: 'r' }, harness: { version: '0' }, baseUrl: BASE, messagesBasePath: '/anthropic', emptyBalanceKey: false };
  const authorization = { bearer: (secret: number | null) => `Bearer ${secret === null ? 'sk-not-a-replay-key' : REPLAY_KEYS[secret]}`, malformed: () => 'Basic abc', none: () => undefined };
  /** What the recording's MSW handlers answer a chat request (undefined: no handler matched). */
  const replay = (exchanges: FixtureExchange[], options: { partial?: boolean } = {}) => {
    const handlers = handlersOf({ manifest: { ...manifest, ...(options.partial ? { coverage: 'partial' as const } : {}) }, exchanges });
    return (content: string, secret: number | null = 0, auth: 'bearer' | 'none' | 'malformed' = 'bearer') => {
      const credential = authorization[auth](secret);
      const headers = { 'content-type': 'application/json', ...(credential ? { authorization: credential } : {}) };
      return getResponse(handlers, new Request(`${BASE}/chat/completions`, { method: 'POST', headers, body: JSON.stringify(chat(content).request.body) }));
    };
  };

  test('exact matches are served in recording order, the last again once used up', async () => {
    const m = replay([fx('a'), { ...fx('a'), response: { status: 429, headers: {} } }]);
    expect((await m('a'))?.status).toBe(200);
    expect((await m('a'))?.status).toBe(429);
    expect((await m('a'))?.status).toBe(429);
  });

  test('the key index is part of the match', async () => {
    const m = replay([fx('a', 1)]);
    expect(await m('a', 0)).toBeUndefined();
    expect(await m('a', 1)).toBeDefined();
  });

  test('a random marker falls back to the most alike recorded body, and keeps it', async () => {
    const m = replay([fx('remember the code word zebra-abc123'), fx('something else entirely, nothing alike at all')]);
    expect(await (await m('remember the code word zebra-xyz789'))?.json()).toEqual(chat('remember the code word zebra-abc123').response!.body);
    expect(await m('remember the code word zebra-xyz789')).toBeDefined();
    expect(await m('an unrelated prompt')).toBeUndefined();
  });

  test('exact-only matching (a capture-built set) has no fallback', async () => {
    const m = replay([fx('remember the code word zebra-abc123')], { partial: true });
    expect(await m('remember the code word zebra-xyz789')).toBeUndefined();
    expect(await m('remember the code word zebra-abc123')).toBeDefined();
  });

  test("the alike match never crosses models or routes: another model's request, or another path's, is not answered from this one's", async () => {
    const marker = 'remember the code word zebra-abc123';
    const recorded = toFixtureExchange(chatOf('svc-v4-flash', marker), BASE, 0);
    const handlers = handlersOf({ manifest, exchanges: [recorded] });
    const ask = (model: string, content: string, path = '/chat/completions') =>
      getResponse(handlers, new Request(`${BASE}${path}`, { method: 'POST', headers: { authorization: `Bearer ${REPLAY_KEYS[0]}` }, body: JSON.stringify(chatOf(model, content).request.body) }));
    // The body differs from the recorded one by the model alone: far above 80% alike, and still not its answer.
    expect(await ask('svc-v4-pro', marker)).toBeUndefined();
    expect(await ask('svc-v4-pro', 'remember the code word zebra-xyz789')).toBeUndefined();
    expect(await ask('svc-v4-flash', 'remember the code word zebra-xyz789', '/beta/chat/completions')).toBeUndefined();
    expect(await ask('svc-v4-flash', 'remember the code word zebra-xyz789', '/chat/completions?x=1')).toBeUndefined();
    expect(await (await ask('svc-v4-flash', 'remember the code word zebra-xyz789'))?.json()).toEqual(recorded.response!.body);
  });

  test('an exchange keyed by an auth form answers only requests carrying their credential that way', async () => {
    const m = replay([{ ...fx('a', null), key: { ...fx('a', null).key, auth: 'bearer' } }]);
    expect(await m('a', null, 'none')).toBeUndefined();
    expect(await m('a', null, 'malformed')).toBeUndefined();
    expect(await m('a', null, 'bearer')).toBeDefined();
  });

  test('a recorded request carrying none of the run\'s keys is keyed by how it carries a credential, so the missing, malformed and wrong-key checks (one body, any order) each get their own answer', async () => {
    const keyless = (authorization: string | undefined, content: string): FixtureExchange => {
      const ex = chat('same');
      const headers = { ...ex.request.headers };
      delete (headers as Record<string, string>).authorization;
      const fixture = toFixtureExchange({ ...ex, request: { ...ex.request, headers: { ...headers, ...(authorization ? { authorization } : {}) } }, response: { ...ex.response!, body: { content } } }, BASE, undefined);
      return fixture;
    };
    const recorded = [keyless(undefined, 'none'), keyless('Bearer sk-wrong-1', 'wrong'), keyless('Token x', 'malformed')];
    expect(recorded.map((f) => f.key.auth)).toEqual(['none', 'bearer', 'malformed']);
    // With the run's key, the key index says it all: no auth form.
    expect(toFixtureExchange(chat('same'), BASE, 0).key.auth).toBeUndefined();
    const m = replay(recorded);
    // Asked in another order than recorded.
    expect(await (await m('same', null, 'malformed'))!.json()).toEqual({ content: 'malformed' });
    expect(await (await m('same', null, 'none'))!.json()).toEqual({ content: 'none' });
    expect(await (await m('same', null, 'bearer'))!.json()).toEqual({ content: 'wrong' });
  });
});

describe('the replay server', () => {
  test('answers recorded JSON and SSE through MSW handlers, and names what was not recorded', async () => {
    const dir = tmp();
    writeManifest(dir, { schemaVersion: 1, recordedAt: '2026-06-01T00:00:00.000Z', clock: '2026-06-01T00:00:00.000Z', spec: { revision: 'r' }, harness: { version: '0' }, baseUrl: BASE, messagesBasePath: '/anthropic', emptyBalanceKey: false });
    const record = fixtureRecorder(dir, BASE);
    record(chat('hi'), { secret: 0 });
    const stream = chat('stream');
    // The stream's own bytes, as a server framed them (CRLF, a field with no space after its colon): replayed exactly.
    const raw = 'data:{"n":1}\r\n\r\n: keep-alive\r\n\r\ndata: [DONE]\r\n\r\n';
    stream.response = { status: 200, headers: { 'content-type': 'text/event-stream' }, events: [{ at: 0, data: '{"n":1}' }, { at: 5, data: ':keep-alive' }, { at: 60, data: '[DONE]' }], text: raw, durationMs: 60 };
    record(stream, { secret: 0 });
    // A recording made before the raw bytes were kept: its events are framed anew.
    const older = chat('older stream');
    older.response = { status: 200, headers: { 'content-type': 'text/event-stream' }, events: [{ at: 0, data: '{"n":1}' }, { at: 5, data: ':keep-alive' }, { at: 60, data: '[DONE]' }], durationMs: 60 };
    record(older, { secret: 0 });
    const server = await startReplayServer(dir);
    try {
      const post = (content: string, key: string = REPLAY_KEYS[0]) =>
        fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ content, role: 'user' }], model: 'm' }) });
      const res = await post('hi');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ object: 'chat.completion', content: 'hi' });
      // The spacing is recordedResponse.test.ts's, on a clock of its own: no test times the wall.
      const sse = await post('stream');
      expect(await sse.text()).toBe(raw);
      expect(await (await post('older stream')).text()).toBe('data: {"n":1}\n\n:keep-alive\n\ndata: [DONE]\n\n');
      const missing = await fetch(`${server.url}/v1/nothing`);
      expect(missing.status).toBe(NOT_RECORDED_STATUS);
      expect(await missing.json()).toEqual({ error: { message: 'no recording for GET /v1/nothing without the key', type: 'fixture_not_found', code: 'fixture_not_found' } });
    } finally {
      await server.close();
    }
    const fast = await startReplayServer(dir, { fast: true });
    try {
      const sse = await fetch(`${fast.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${REPLAY_KEYS[0]}` }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'stream' }] }) });
      expect(await sse.text()).toBe(raw);
    } finally {
      await fast.close();
    }
    const [first] = readdirSync(join(dir, 'exchanges')).sort();
    const file = join(dir, 'exchanges', first!);
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('"status": 200', '"status": "200"'));
    await expect(startReplayServer(dir)).rejects.toThrow(new RegExp(`${first!}: does not match fixtures/fixture.schema.json: /response/status must be integer`));
    writeFileSync(file, good);
    writeFileSync(join(dir, 'manifest.json'), '{"schemaVersion":2}');
    await expect(startReplayServer(dir)).rejects.toThrow(/schemaVersion/);
  });

  test('indexing the handlers by key and route answers as the whole list does: a fallback match, an auth-keyed exchange', async () => {
    const dir = tmp();
    writeManifest(dir, { schemaVersion: 1, recordedAt: '2026-06-01T00:00:00.000Z', clock: '2026-06-01T00:00:00.000Z', spec: { revision: 'r' }, harness: { version: '0' }, baseUrl: BASE, messagesBasePath: '/anthropic', emptyBalanceKey: false });
    const record = fixtureRecorder(dir, BASE);
    record(chat('remember the code word zebra-abc123'), { secret: 0 });
    record(chat('a'), {});
    const [, keyed] = readdirSync(join(dir, 'exchanges')).sort();
    const file = join(dir, 'exchanges', keyed!);
    const fx = JSON.parse(readFileSync(file, 'utf8')) as FixtureExchange;
    writeFileSync(file, canonicalJson({ ...fx, key: { ...fx.key, auth: 'bearer' } }));
    const server = await startReplayServer(dir);
    try {
      const post = (content: string, authorization?: string) =>
        fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] }) });
      const similar = await post('remember the code word zebra-xyz789', `Bearer ${REPLAY_KEYS[0]}`);
      expect(await similar.json()).toEqual({ object: 'chat.completion', content: 'remember the code word zebra-abc123' });
      expect((await post('a')).status).toBe(NOT_RECORDED_STATUS);
      expect((await post('a', 'Bearer sk-some-other-key')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test("a miss is marked for a skip only where it cannot be a recorded check's: a manifest listing its checks fails it", async () => {
    const base = { schemaVersion: 1 as const, recordedAt: '2026-06-01T00:00:00.000Z', clock: '2026-06-01T00:00:00.000Z', spec: { revision: 'r' }, harness: { version: '0' }, baseUrl: BASE, messagesBasePath: '/anthropic', emptyBalanceKey: false, models: ['m'] };
    const missOf = async (extra: Partial<FixtureManifest>) => {
      const dir = tmp();
      writeManifest(dir, { ...base, ...extra });
      const server = await startReplayServer(dir);
      try {
        const res = await fetch(`${server.url}/models`, { headers: { authorization: `Bearer ${REPLAY_KEYS[0]}` } });
        return { status: res.status, skip: res.headers.get(NOT_CAPTURED_HEADER) };
      } finally {
        await server.close();
      }
    };
    // The checks are listed: a check not among them never runs, so a miss is a listed check's request the replay no longer
    // matches; still the recording's gap, never a status of the endpoint.
    expect(await missOf({ checks: { m: ['a.b.c'] } })).toEqual({ status: NOT_RECORDED_STATUS, skip: 'the recording holds no answer to GET /models, a request of a check it recorded: this harness no longer sends what was recorded (record again)' });
    // An older (or unfinished) recording cannot tell which checks it holds: a miss is taken as not recorded.
    expect(await missOf({})).toEqual({ status: NOT_RECORDED_STATUS, skip: 'the recording (its manifest lists no checks) holds nothing answering GET /models' });
  });

  test('a set built from captures marks what it holds no capture for, so the run skips it', async () => {
    const dir = tmp();
    writeManifest(dir, { schemaVersion: 1, recordedAt: '2026-06-01T00:00:00.000Z', clock: '2026-06-01T00:00:00.000Z', spec: { revision: 'r' }, harness: { version: '0' }, baseUrl: BASE, messagesBasePath: '/anthropic', emptyBalanceKey: false, coverage: 'partial' });
    const server = await startReplayServer(dir);
    try {
      const res = await fetch(`${server.url}/models`, { headers: { authorization: `Bearer ${REPLAY_KEYS[0]}` } });
      expect(res.status).toBe(NOT_RECORDED_STATUS);
      expect(res.headers.get(NOT_CAPTURED_HEADER)).toBe('the fixture set holds no capture answering GET /models');
    } finally {
      await server.close();
    }
  });
});
