import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { backoffCapMs, beyondCap, retryAfterMs, retryDelayMs } from './retryDelayMs.ts';
import { SPEC_RETRY_POLICY as POLICY } from '#harness/testing/httpTestServer.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const half = (): number => 0.5;

describe('retryDelayMs', () => {
  test('the policy in these tests is the one the spec holds', () => {
    // Read straight from the YAML: the transport does not depend on the spec loader.
    const { errors } = parse(readFileSync(new URL('../../spec/errors.yaml', import.meta.url), 'utf8')) as { errors: { retry: Record<string, unknown> } };
    const { strength: _s, source: _src, ...policy } = POLICY;
    expect(errors.retry).toMatchObject(policy);
  });

  // [what, attempt, status, Retry-After, random, expected]
  const cases: [string, number, number, string | undefined, number, number | undefined][] = [
    ['429, attempt 1, no header: 1 s + jitter', 1, 429, undefined, 0.5, 1500],
    ['429, attempt 2: 2 s + jitter', 2, 429, undefined, 0.5, 2500],
    ['429, attempt 3: 4 s + jitter', 3, 429, undefined, 0.5, 4500],
    ['429, attempt 4: 8 s + jitter', 4, 429, undefined, 0.5, 8500],
    ['429, attempt 5 of 5: final', 5, 429, undefined, 0.5, undefined],
    ['jitter at its low end', 1, 429, undefined, 0, 1000],
    ['jitter near its high end', 1, 429, undefined, 0.999, 1999],
    ['500 is advised: retried with backoff', 1, 500, undefined, 0.5, 1500],
    ['503, attempt 1: at least 30 s', 1, 503, undefined, 0.5, 30_000],
    ['503, attempt 4: at least 30 s', 4, 503, undefined, 0.5, 30_000],
    ['Retry-After seconds wins, without jitter', 1, 429, '1', 0.5, 1000],
    ['Retry-After 0', 2, 429, '0', 0.5, 0],
    ['Retry-After with spaces', 1, 429, ' 7 ', 0.5, 7000],
    ['Retry-After decimal seconds', 1, 429, '1.5', 0.5, 1500],
    ['Retry-After an HTTP date 90 s ahead', 1, 429, 'Sun, 01 Mar 2026 12:01:30 GMT', 0.5, 90_000],
    ['Retry-After a date in the past: now', 1, 429, 'Sun, 01 Mar 2026 11:00:00 GMT', 0.5, 0],
    ['Retry-After unreadable: backoff', 2, 429, 'soon', 0.5, 2500],
    ['Retry-After negative: backoff', 1, 429, '-5', 0.5, 1500],
    ['Retry-After is not capped at max_delay', 1, 429, '120', 0.5, 120_000],
    ['503 with a short Retry-After: still 30 s', 1, 503, '5', 0.5, 30_000],
    ['503 with a longer Retry-After: the header', 1, 503, '45', 0.5, 45_000],
    ['Retry-After on a 500 is read too', 1, 500, '2', 0.5, 2000],
    ['400 is final', 1, 400, undefined, 0.5, undefined],
    ['401 is final even with Retry-After', 1, 401, '1', 0.5, undefined],
    ['200 is final', 1, 200, undefined, 0.5, undefined],
  ];
  test.each(cases)('%s', (_what, attempt, status, retryAfter, random, expected) => {
    expect(retryDelayMs(POLICY, attempt, status, retryAfter, () => random, NOW)).toBe(expected);
  });

  test('the backoff is capped at max_delay, jitter added after the cap', () => {
    const many = { ...POLICY, max_attempts: 10 };
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempt) => retryDelayMs(many, attempt, 429, undefined, half, NOW));
    expect(waits).toEqual([1500, 2500, 4500, 8500, 16_500, 32_500, 60_500, 60_500, 60_500]);
    expect(retryDelayMs(many, 10, 429, undefined, half, NOW)).toBeUndefined();
  });

  test('beyondCap: a Retry-After longer than max_delay is not waited out; up to it, and backoff, are', () => {
    expect(backoffCapMs(POLICY)).toBe(POLICY.max_delay_seconds * 1000);
    expect(beyondCap(POLICY, '3600', NOW)).toEqual({ askedMs: 3_600_000, capMs: 60_000 });
    expect(beyondCap(POLICY, 'Sun, 01 Mar 2026 12:01:30 GMT', NOW)).toEqual({ askedMs: 90_000, capMs: 60_000 });
    expect(beyondCap(POLICY, '60', NOW)).toBeUndefined();
    expect(beyondCap(POLICY, undefined, NOW)).toBeUndefined();
    expect(beyondCap(POLICY, 'soon', NOW)).toBeUndefined();
    // The cap is the policy's, whatever it is.
    expect(beyondCap({ ...POLICY, max_delay_seconds: 5 }, '6', NOW)).toEqual({ askedMs: 6000, capMs: 5000 });
    expect(beyondCap({ ...POLICY, read_retry_after_first: false }, '3600', NOW)).toBeUndefined();
  });

  test('read_retry_after_first false: the header is ignored', () => {
    expect(retryDelayMs({ ...POLICY, read_retry_after_first: false }, 1, 429, '10', half, NOW)).toBe(1500);
  });

  test('without advised_statuses, 500 is final', () => {
    const { advised_statuses: _dropped, ...strictPolicy } = POLICY;
    expect(retryDelayMs(strictPolicy, 1, 500, undefined, half, NOW)).toBeUndefined();
  });

  test('max_attempts 1: nothing is retried', () => {
    expect(retryDelayMs({ ...POLICY, max_attempts: 1 }, 1, 429, undefined, half, NOW)).toBeUndefined();
  });
});

describe('retryAfterMs', () => {
  test.each([
    [undefined, undefined],
    ['', undefined],
    ['3', 3000],
    ['Sun, 01 Mar 2026 12:00:10 GMT', 10_000],
    ['Sunday, 01-Mar-26 12:00:10 GMT', 10_000],
    ['Sun Mar  1 12:00:10 2026', 10_000],
    ['12abc', undefined],
    ['1e3', undefined],
  ])('%j -> %j', (value, expected) => {
    expect(retryAfterMs(value, NOW)).toBe(expected);
  });
});
