import { describe, expect, test } from 'vitest';
import { answerDifferences, incidentalChanges, requestDifferences, usageDifferences, usageOf } from './differences.ts';
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

describe('what a gateway changed in the answer', () => {
  const body = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 100, choices: [{ index: 0, message, finish_reason: 'tool_calls', logprobs: null }], ...extra });
  const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' } };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ id: 'chatcmpl-1', created: 100, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const stream = [chunk({ role: 'assistant', reasoning_content: 'think ' }), chunk({ reasoning_content: 'hard' }), chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'get_weather', arguments: '{"city":' } }] }), chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris","unit":"c"}' } }] }), chunk({}, 'tool_calls'), 'data: [DONE]\n\n'].join('');

  test('a stream put together is the body it stands for: reasoning and a tool call split across chunks', () => {
    expect(answerDifferences(stream, body({ role: 'assistant', reasoning_content: 'think hard', tool_calls: [call] }))).toEqual([]);
  });

  test('reasoning dropped, a tool call argument changed, the finish reason replaced: each a difference with both sides', () => {
    const told = body({ role: 'assistant', tool_calls: [{ ...call, function: { ...call.function, arguments: '{"city":"Paris"}' } }] }).replace('"tool_calls"}', '"stop"}').replace('"finish_reason":"tool_calls"', '"finish_reason":"stop"');
    expect(answerDifferences(told, stream).map((d) => [d.kind, d.path])).toEqual([
      ['dropped', 'reasoning_content'],
      ['replaced', 'tool_calls.0.function.arguments'],
      ['replaced', 'finish_reason'],
    ]);
  });

  test('ids, created, fields and headers of its own are information, never differences', () => {
    const upstream = body({ role: 'assistant', content: 'hi' });
    const client = body({ role: 'assistant', content: 'hi' }, { provider: 'openai' }).replace('chatcmpl-1', 'gw-7').replace('100', '101');
    expect(answerDifferences(client, upstream)).toEqual([]);
    expect(incidentalChanges({ text: client, headers: { 'x-litellm-call-id': 'a', date: 'x' } }, { text: upstream, headers: { date: 'y' } })).toEqual(['id: "chatcmpl-1" -> "gw-7"', 'created: 100 -> 101', 'fields added: provider', 'headers added: x-litellm-call-id']);
  });
});
