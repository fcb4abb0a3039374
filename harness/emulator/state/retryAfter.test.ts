import { describe, expect, it } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { retryAfterSeconds } from './retryAfter.ts';

const { spec } = loadSpec();

describe('retryAfterSeconds', () => {
  it('503: the minimum wait the spec gives (30 s)', () => {
    expect(retryAfterSeconds(spec, 503)).toBe(30);
    expect(retryAfterSeconds(spec, 503)).toBe(spec.errors.statuses['503']!.min_retry_after_seconds);
  });

  it('429: the first delay of the retry guidance (1 s)', () => {
    expect(retryAfterSeconds(spec, 429)).toBe(1);
    expect(retryAfterSeconds(spec, 429)).toBe(spec.errors.retry.initial_delay_seconds);
  });

  it('follows the spec, rounding up to whole seconds', () => {
    const changed = structuredClone(spec);
    changed.errors.statuses['503']!.min_retry_after_seconds = 45;
    changed.errors.retry.initial_delay_seconds = 0.5;
    expect(retryAfterSeconds(changed, 503)).toBe(45);
    expect(retryAfterSeconds(changed, 429)).toBe(1);
  });

  it('503 falls back to the retry guidance when the status row has no minimum', () => {
    const changed = structuredClone(spec);
    delete changed.errors.statuses['503']!.min_retry_after_seconds;
    changed.errors.retry.min_delay_after_503_seconds = 40;
    expect(retryAfterSeconds(changed, 503)).toBe(40);
  });

  it('refuses other statuses', () => {
    expect(() => retryAfterSeconds(spec, 500 as 503)).toThrow(/only 429 and 503/);
  });
});
