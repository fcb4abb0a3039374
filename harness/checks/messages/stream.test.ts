import { describe, expect, test } from 'vitest';
import { orderDepartures } from './stream.ts';

const ev = (name: string, data: Record<string, unknown> = {}) => ({ name, data: { type: name, ...data } });
const inOrder = [
  ev('message_start', { message: {} }),
  ev('ping'),
  ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello' } }),
  ev('content_block_stop', { index: 0 }),
  ev('message_delta', { delta: { stop_reason: 'end_turn' } }),
  ev('message_stop'),
];

describe('orderDepartures', () => {
  test('a stream in the format\'s order has none (ping anywhere)', () => {
    expect(orderDepartures(inOrder)).toEqual([]);
  });

  test('message_stop before the block closes is named', () => {
    const broken = [...inOrder.slice(0, 4), ev('message_stop'), inOrder[4]!, inOrder[5]!];
    const found = orderDepartures(broken);
    expect(found).toContain('the last event is "message_delta", not message_stop');
    expect(found.some((d) => d.includes('message_stop while a content block is still open'))).toBe(true);
  });

  test('a delta before its block starts, data typed unlike its event, and a chat-style stop reason are named', () => {
    const broken = [inOrder[0]!, inOrder[3]!, inOrder[2]!, inOrder[4]!, { name: 'message_delta', data: { type: 'delta', delta: { stop_reason: 'stop' } } }, inOrder[6]!];
    const found = orderDepartures(broken);
    expect(found.some((d) => d.includes('outside its content_block_start'))).toBe(true);
    expect(found.some((d) => d.includes('carries data of `type` "delta"'))).toBe(true);
    expect(found.some((d) => d.includes('`delta.stop_reason` is "stop"'))).toBe(true);
  });

  test('a stream of no content blocks is named', () => {
    expect(orderDepartures([inOrder[0]!, inOrder[5]!, inOrder[6]!])).toEqual(['no content block was streamed']);
  });
});
