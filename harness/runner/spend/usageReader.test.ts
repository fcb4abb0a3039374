import { describe, expect, test } from 'vitest';
import { UsageReader } from './usageReader.ts';

const read = (feed: (r: UsageReader) => void) => {
  const r = new UsageReader();
  feed(r);
  return r.tokens;
};

describe('UsageReader', () => {
  test('a JSON body: its usage, in the chat format or the messages format', () => {
    expect(read((r) => r.body({ usage: { prompt_tokens: 12, completion_tokens: 5, prompt_cache_hit_tokens: 4 } }))).toEqual({ promptTokens: 12, completionTokens: 5, cacheHitTokens: 4 });
    expect(read((r) => r.body({ usage: { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 2 } }))).toEqual({ promptTokens: 9, completionTokens: 3, cacheHitTokens: 2 });
    expect(read((r) => r.body({ error: { message: 'no' } }))).toEqual({ promptTokens: 0, completionTokens: 0, cacheHitTokens: 0 });
  });

  test('a body read as text counts when it is JSON, and reading it twice counts it once', () => {
    const text = JSON.stringify({ usage: { prompt_tokens: 3, completion_tokens: 2 } });
    expect(read((r) => r.text(text))).toEqual({ promptTokens: 3, completionTokens: 2, cacheHitTokens: 0 });
    expect(read((r) => (r.text(text), r.body(JSON.parse(text))))).toEqual({ promptTokens: 3, completionTokens: 2, cacheHitTokens: 0 });
    expect(read((r) => r.text('{"usage": cut off'))).toEqual({ promptTokens: 0, completionTokens: 0, cacheHitTokens: 0 });
  });

  test('a chat stream: the event that carries usage; chunks with `"usage": null` and [DONE] are passed over', () => {
    const tokens = read((r) => {
      r.event('{"choices":[{"delta":{"content":"Hi"}}],"usage":null}');
      r.event('{"choices":[],"usage":{"prompt_tokens":8,"completion_tokens":17,"prompt_cache_hit_tokens":0}}');
      r.event('[DONE]');
      r.event(': keep-alive');
    });
    expect(tokens).toEqual({ promptTokens: 8, completionTokens: 17, cacheHitTokens: 0 });
  });

  test('a messages stream: input from message_start, output from the last message_delta', () => {
    const tokens = read((r) => {
      r.event('{"type":"message_start","message":{"usage":{"input_tokens":10,"output_tokens":1}}}');
      r.event('{"type":"content_block_delta","delta":{"text":"usage"}}');
      r.event('{"type":"message_delta","usage":{"output_tokens":6}}');
      r.event('{"type":"message_delta","usage":{"output_tokens":9}}');
    });
    expect(tokens).toEqual({ promptTokens: 10, completionTokens: 9, cacheHitTokens: 0 });
  });
});
