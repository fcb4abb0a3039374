import { describe, expect, test } from 'vitest';
import { startAimock, startMockOpenAiApi, type ThirdPartyServer } from './servers.ts';

const KEY = 'sk-test-123';

async function chat(server: ThirdPartyServer, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The JSON payloads of an SSE body's `data:` lines, `[DONE]` left as the string. */
function dataLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice('data: '.length))
    .map((d) => (d === '[DONE]' ? d : JSON.parse(d)));
}

interface Case {
  name: string;
  start: () => Promise<ThirdPartyServer>;
  model: string;
  text: string;
}

const cases: Case[] = [
  { name: 'aimock', start: () => startAimock({ apiKeys: [KEY] }), model: 'svc-v4-flash', text: 'Hello from aimock (svc-v4-flash).' },
  { name: 'mock-openai-api', start: startMockOpenAiApi, model: 'mock-gpt-thinking', text: 'Hello! How can I help you today? 😊' },
];

describe.each(cases)('$name', ({ start, model, text }) => {
  test('answers one chat request and one stream request on 127.0.0.1, then closes', async () => {
    const server = await start();
    try {
      expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const res = await chat(server, { model, messages: [{ role: 'user', content: 'Hello' }] });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { object: string; model: string; choices: { message: { content: string } }[] };
      expect(body.object).toBe('chat.completion');
      expect(body.model).toBe(model);
      expect(body.choices[0]?.message.content).toBe(text);

      const sres = await chat(server, { model, messages: [{ role: 'user', content: 'Hello' }], stream: true });
      expect(sres.status).toBe(200);
      expect(sres.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = dataLines(await sres.text());
      expect(events.at(-1)).toBe('[DONE]');
      const chunks = events.slice(0, -1) as { object: string; choices: { delta: { content?: string | null }; finish_reason: string | null }[] }[];
      expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(text);
      expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    } finally {
      await server.close();
    }
    await expect(fetch(`${server.baseUrl}/health`)).rejects.toThrow();
  });
});

test('aimock with keys answers 401 to a wrong key; without keys it lets every request in', async () => {
  const locked = await startAimock({ apiKeys: [KEY] });
  const open = await startAimock();
  try {
    const body = JSON.stringify({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'Hi' }] });
    const headers = { authorization: 'Bearer sk-wrong', 'content-type': 'application/json' };
    expect((await fetch(`${locked.baseUrl}/chat/completions`, { method: 'POST', headers, body })).status).toBe(401);
    expect((await fetch(`${open.baseUrl}/chat/completions`, { method: 'POST', headers, body })).status).toBe(200);
  } finally {
    await Promise.all([locked.close(), open.close()]);
  }
});
