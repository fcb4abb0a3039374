import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { createApp } from './app.ts';
import { createContext } from './context.ts';
import type { EmulatorOptions } from './options.ts';
import { startEmulator } from './server.ts';

const { spec } = loadSpec();
const KEY = 'sk-app-test';
const BEFORE_RETIREMENT = new Date('2026-06-01T00:00:00Z');

function app(options: Partial<EmulatorOptions> = {}) {
  const handle = createApp(createContext({ spec, apiKeys: [KEY], now: () => BEFORE_RETIREMENT, ...options }));
  return async (path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }) => {
    const res = await handle(new Request(`http://emulator${path}`, body === undefined ? { headers } : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json: json as Record<string, any> }; // any: test reads arbitrary response fields
  };
}

const chat = (extra: Record<string, unknown> = {}) => ({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'Hello' }], ...extra });

describe('legacy reasoner while active', () => {
  const send = app();
  test('routes to svc-v4-flash in thinking mode', async () => {
    const r = await send('/chat/completions', chat({ model: 'svc-reasoner' }));
    expect(r.status).toBe(200);
    expect(r.json.model).toBe('svc-v4-flash');
    expect(typeof r.json.choices[0].message.reasoning_content).toBe('string');
  });
  test('accepts sampling fields, and they change nothing', async () => {
    const plain = await send('/chat/completions', chat({ model: 'svc-reasoner' }));
    const tuned = await send('/chat/completions', chat({ model: 'svc-reasoner', temperature: 0.1, top_p: 0.2, presence_penalty: 1, frequency_penalty: -1 }));
    expect(tuned.status).toBe(200);
    expect(tuned.json.choices[0].message.content).toBe(plain.json.choices[0].message.content);
  });
  test('refuses logprobs and top_logprobs', async () => {
    expect((await send('/chat/completions', chat({ model: 'svc-reasoner', logprobs: true }))).status).toBeGreaterThanOrEqual(400);
    expect((await send('/chat/completions', chat({ model: 'svc-reasoner', logprobs: true, top_logprobs: 2 }))).status).toBeGreaterThanOrEqual(400);
  });
  test('hands a request with tools to svc-chat: no reasoning', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
    const r = await send('/chat/completions', chat({ model: 'svc-reasoner', tools, tool_choice: 'required' }));
    expect(r.status).toBe(200);
    expect(r.json.choices[0].message.reasoning_content).toBeNull();
    expect(r.json.choices[0].finish_reason).toBe('tool_calls');
  });
  test('sending reasoning_content back to the reasoner is 400', async () => {
    const messages = [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello', reasoning_content: 'thought' }, { role: 'user', content: 'More' }];
    expect((await send('/chat/completions', chat({ model: 'svc-reasoner', messages }))).status).toBe(400);
  });
});

describe('logprobs', () => {
  test('one entry per output token, with top_logprobs alternatives when asked', async () => {
    const r = await app()('/chat/completions', chat({ logprobs: true, top_logprobs: 3, messages: [{ role: 'user', content: 'Repeat: a b c' }] }));
    const content = r.json.choices[0].logprobs.content as { token: string; top_logprobs: unknown[] }[];
    expect(content.map((c) => c.token).join('')).toBe('a b c');
    for (const c of content) expect(c.top_logprobs).toHaveLength(3);
    expect((await app()('/chat/completions', chat())).json.choices[0].logprobs).toBeNull();
  });
});

describe('authentication', () => {
  const send = app({ revokedKeys: ['sk-revoked'] });
  test.each([
    ['missing', {}],
    ['malformed', { authorization: `Token ${KEY}` }],
    ['quoted', { authorization: `Bearer "${KEY}"` }],
    ['unknown', { authorization: 'Bearer sk-unknown' }],
    ['revoked', { authorization: 'Bearer sk-revoked' }],
  ])('%s key: 401 with the envelope, and the key is not echoed', async (_name, headers) => {
    const r = await send('/models', undefined, headers as Record<string, string>);
    expect(r.status).toBe(401);
    expect(r.json.error).toMatchObject({ type: 'authentication_error', message: expect.any(String) });
    expect(r.text).not.toContain('sk-revoked');
    expect(r.text).not.toContain('sk-unknown');
  });
});

describe('errors on the messages base', () => {
  const send = app();
  const ask = { model: 'svc-v4-flash', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] };
  test('every refusal there (auth, validation, unknown path) is the format\'s `{type: "error", error: {type, message}}`', async () => {
    const auth = await send('/anthropic/v1/messages', ask, { 'x-api-key': 'sk-unknown' });
    expect(auth).toMatchObject({ status: 401, json: { type: 'error', error: { type: 'authentication_error', message: expect.any(String) } } });
    expect(auth.text).not.toContain('sk-unknown');
    const invalid = await send('/anthropic/v1/messages', { ...ask, max_tokens: undefined });
    expect(invalid).toMatchObject({ status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } } });
    const nowhere = await send('/anthropic/v1/nothing', ask);
    expect(nowhere).toMatchObject({ status: 404, json: { type: 'error', error: { type: 'not_found_error' } } });
  });
  test('the chat bases keep the chat envelope', async () => {
    const r = await send('/chat/completions', { model: 'svc-v4-flash', messages: [] });
    expect(r.json).toEqual({ error: expect.objectContaining({ message: expect.any(String), type: 'invalid_request_error' }) });
  });
});

describe('limits and availability', () => {
  test('an address the service does not serve: 404 with the envelope', async () => {
    const r = await app()('/nope');
    expect(r.status).toBe(404);
    expect(r.json.error.message).toContain('/nope');
  });
  test('maintenance: 503 with Retry-After of at least the spec minimum', async () => {
    const r = await app({ maintenance: true })('/models');
    expect(r.status).toBe(503);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(spec.errors.statuses['503']!.min_retry_after_seconds!);
  });
  test('beyond the concurrency limit: 429 with Retry-After; within it: served', async () => {
    expect((await app({ concurrencyPerKey: 0 })('/models')).status).toBe(429);
    expect((await app({ concurrencyPerKey: 0 })('/models')).headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await app({ concurrencyPerKey: 1 })('/models')).status).toBe(200);
  });
  test('a stream holds its slot until it ends', async () => {
    const handle = createApp(createContext({ spec, apiKeys: [KEY], now: () => BEFORE_RETIREMENT, concurrencyPerKey: 1 }));
    const req = (body: unknown) => new Request('http://emulator/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify(body) });
    const streaming = await handle(req(chat({ stream: true })));
    expect((await handle(req(chat()))).status).toBe(429);
    await streaming.text();
    expect((await handle(req(chat()))).status).toBe(200);
  });
});

describe('streaming over a socket', () => {
  test('arrives in many reads, not in one write', async () => {
    const emu = await startEmulator({ spec, apiKeys: [KEY], now: () => BEFORE_RETIREMENT, streamIntervalMs: 2 });
    try {
      const res = await fetch(`${emu.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify(chat({ stream: true })) });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      // Counted, not timed: one write would arrive in one or two reads, however slow the machine.
      let reads = 0;
      for (;;) {
        const { done } = await reader.read();
        if (done) break;
        reads += 1;
      }
      expect(reads).toBeGreaterThan(3);
    } finally {
      await emu.close();
    }
  });
});

describe('latency (emulate --latency-ms), as a far endpoint answers', () => {
  test('every answer waits at least latencyMs before it is given, a refusal too; the same answer as without it', async () => {
    const slow = app({ latencyMs: 150 });
    const fast = app();
    for (const [path, body] of [['/models', undefined], ['/no-such-path', undefined]] as const) {
      const started = performance.now();
      const answer = await slow(path, body);
      // A lower bound only: a loaded machine is slower, never faster.
      expect(performance.now() - started).toBeGreaterThanOrEqual(145);
      expect(answer.status).toBe((await fast(path, body)).status);
    }
  });
});
