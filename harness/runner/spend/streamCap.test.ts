import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { parseQuantity } from '#harness/spec/quantity.ts';
import { BYTES_PER_STREAMED_TOKEN, STREAM_SLACK_BYTES, streamCapOf } from './streamCap.ts';

const { spec } = loadSpec();

describe('streamCapOf', () => {
  test('a stream may carry the tokens it asked for, and a maximum-output stream is never cut', () => {
    expect(streamCapOf(spec, 'svc-v4-flash', { stream: true, max_tokens: 32 })).toBe(32 * BYTES_PER_STREAMED_TOKEN + STREAM_SLACK_BYTES);
    const max = parseQuantity(spec.models['svc-v4-flash']!.max_output_tokens)!.high;
    expect(streamCapOf(spec, 'svc-v4-flash', { stream: true })).toBe(max * BYTES_PER_STREAMED_TOKEN + STREAM_SLACK_BYTES);
    // The spec's largest output, in the real service's chunk shape (about 280 bytes a token), fits.
    expect(streamCapOf(spec, 'svc-v4-flash', { stream: true })!).toBeGreaterThan(max * 280);
  });

  test('not a stream, or no bound known: the transport default', () => {
    expect(streamCapOf(spec, 'svc-v4-flash', { max_tokens: 32 })).toBeUndefined();
    expect(streamCapOf(spec, 'no-such-model', { stream: true })).toBeUndefined();
    expect(streamCapOf(spec, 'svc-v4-flash', { stream: true, max_tokens: -1 })).toBe(parseQuantity(spec.models['svc-v4-flash']!.max_output_tokens)!.high * BYTES_PER_STREAMED_TOKEN + STREAM_SLACK_BYTES);
  });
});
