import { describe, expect, test } from 'vitest';
import { messagesFacts } from './messagesFacts.ts';
import { REQUEST_FIELDS, STOP_REASONS, upstreamFormat } from './translation.ts';

describe('the table of the two formats', () => {
  test('no stop reason stands for two finish reasons: content_filter is kept apart from a stop sequence', () => {
    const owners = Object.entries(STOP_REASONS).flatMap(([finish, e]) => e.stopReasons.map((r) => [r, finish] as const));
    expect(new Set(owners.map(([r]) => r)).size).toBe(owners.length);
    expect(STOP_REASONS.content_filter!.stopReasons).not.toContain('stop_sequence');
  });

  test('each request field as the chat value it means', () => {
    const as = (field: string, value: unknown) => {
      const f = REQUEST_FIELDS.find((x) => x.messages === field)!;
      return [f.chat, f.translate ? f.translate(value) : value];
    };
    expect(as('stop_sequences', ['END'])).toEqual(['stop', ['END']]);
    expect(as('tool_choice', { type: 'any' })).toEqual(['tool_choice', 'required']);
    expect(as('tool_choice', { type: 'tool', name: 'get_weather' })).toEqual(['tool_choice', { type: 'function', function: { name: 'get_weather' } }]);
    expect(as('thinking', { type: 'enabled', budget_tokens: 1024 })).toEqual(['thinking', { type: 'enabled' }]);
    expect(as('tools', [{ name: 'f', description: 'd', input_schema: { type: 'object' } }])).toEqual(['tools', [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' } } }]]);
    const tools = REQUEST_FIELDS.find((x) => x.messages === 'tools')!;
    const expected = tools.translate!([{ name: 'f', input_schema: { type: 'object' } }]);
    // A gateway's own `strict` beside them changes nothing sent; a schema replaced does.
    expect(tools.same!(expected, [{ type: 'function', function: { name: 'f', parameters: { type: 'object' }, strict: false } }])).toBe(true);
    expect(tools.same!(expected, [{ type: 'function', function: { name: 'f', parameters: {} } }])).toBe(false);
  });

  test('the upstream format by the path it was asked at', () => {
    expect(upstreamFormat('/v1/chat/completions')).toBe('chat');
    expect(upstreamFormat('/anthropic/v1/messages?beta=true')).toBe('messages');
    expect(upstreamFormat('/v1/completions')).toBeUndefined();
  });
});

describe('what a messages-format answer says of how it ended and counted', () => {
  test('a stream: message_start usage, the last message_delta stop reason and usage', () => {
    const ev = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
    const text = ev('message_start', { message: { usage: { input_tokens: 0, output_tokens: 0 } } }) + ev('message_delta', { delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { input_tokens: 7, output_tokens: 3 } });
    expect(messagesFacts(text)).toMatchObject({ streamed: true, read: true, stop_reason: 'max_tokens', start: { input_tokens: 0, output_tokens: 0 }, delta: { input_tokens: 7, output_tokens: 3 } });
    expect(messagesFacts(JSON.stringify({ error: { type: 'x' } })).read).toBe(false);
  });
});
