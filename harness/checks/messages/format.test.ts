import { describe, expect, test } from 'vitest';
import { shapeDepartures } from './format.ts';

const reply = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 1 } };

describe('shapeDepartures', () => {
  test('a reply in the format\'s convention has none', () => {
    expect(shapeDepartures(reply)).toEqual([]);
  });

  test('a chat-style stop reason, a missing usage count and an untyped block are named', () => {
    expect(shapeDepartures({ ...reply, stop_reason: 'stop', usage: { input_tokens: 3 }, content: [{ text: 'Hi' }] })).toEqual([
      '`stop_reason` is "stop", not one of end_turn, max_tokens, stop_sequence, tool_use',
      '`usage.output_tokens` is absent, not a count',
      '`content[0]` has no `type`',
    ]);
  });
});
