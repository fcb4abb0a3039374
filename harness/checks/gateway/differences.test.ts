import { describe, expect, test } from 'vitest';
import { requestDifferences, usageDifferences, usageOf } from './differences.ts';
import { marked } from '#harness/core/marker.ts';

const client = { model: 'svc-v4-flash', messages: [{ role: 'user', content: 'Say hello.' }], temperature: 0.7, stop: ['END'], thinking: { type: 'enabled' }, response_format: { type: 'text' } };

describe('what a gateway changed in the request', () => {
  test('a parameter dropped, one replaced (clamped), one added; the model mapping and the marker are not changes', () => {
    const upstream = { ...marked(client, 'a1b2c3d4e5f6')!, model: 'deepseek-chat', temperature: 1, user: 'litellm' } as Record<string, unknown>;
    delete upstream.thinking;
    expect(requestDifferences(marked(client, 'a1b2c3d4e5f6'), upstream)).toEqual([
      { kind: 'replaced', path: 'temperature', client: 0.7, upstream: 1 },
      { kind: 'dropped', path: 'thinking', client: { type: 'enabled' } },
      { kind: 'added', path: 'user', upstream: 'litellm' },
    ]);
  });

  test('a transparent gateway, re-serialising with another key order: no difference', () => {
    const reordered = Object.fromEntries(Object.entries(client).reverse().map(([k, v]) => [k, k === 'response_format' ? { type: 'text' } : v]));
    expect(requestDifferences(client, reordered)).toEqual([]);
  });
});

describe('what a gateway changed in the usage it reports', () => {
  const body = (usage: unknown) => JSON.stringify({ id: 'x', choices: [], usage });
  const stream = (usage: unknown) => [`data: ${JSON.stringify({ choices: [{ delta: { content: 'hi' } }] })}`, `data: ${JSON.stringify({ choices: [], usage })}`, 'data: [DONE]', ''].join('\n\n');

  test('recounted in a stream (LiteLLM deepseek: 13/15/28 where the upstream said 8/17/25): each number, both sides', () => {
    expect(usageDifferences(stream({ prompt_tokens: 13, completion_tokens: 15, total_tokens: 28 }), stream({ prompt_tokens: 8, completion_tokens: 17, total_tokens: 25 }))).toEqual([
      { kind: 'replaced', path: 'usage.prompt_tokens', client: 13, upstream: 8 },
      { kind: 'replaced', path: 'usage.completion_tokens', client: 15, upstream: 17 },
      { kind: 'replaced', path: 'usage.total_tokens', client: 28, upstream: 25 },
    ]);
  });

  test('cache fields dropped from a body; the same numbers passed on are no difference', () => {
    const up = { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 8 };
    expect(usageDifferences(body({ prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 }), body(up)).map((d) => [d.kind, d.path])).toEqual([['dropped', 'usage.prompt_cache_hit_tokens'], ['dropped', 'usage.prompt_cache_miss_tokens']]);
    expect(usageDifferences(body(up), stream(up))).toEqual([]);
    expect(usageOf('not json')).toBeUndefined();
  });
});
