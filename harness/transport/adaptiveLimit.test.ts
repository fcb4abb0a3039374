import { describe, expect, test } from 'vitest';
import { AdaptiveLimit, concurrencyPolicyOf, type Answered } from './adaptiveLimit.ts';

/** An answer of `status` to an attempt sent with `inFlight` on the wire in the limit's current epoch. */
const answer = (limit: AdaptiveLimit, status: number, inFlight: number, extra: Partial<Answered> = {}): void =>
  limit.answered({ status, inFlight, latencyMs: 100, epoch: limit.dispatched(), headers: {}, ...extra });

describe('AdaptiveLimit', () => {
  test('slow start: each answer to a full limit adds one, so the limit doubles per round trip, up to max', () => {
    const changes: number[] = [];
    const limit = new AdaptiveLimit({ initial: 4, max: 16 }, (n) => changes.push(n));
    for (let i = 0; i < 4; i++) answer(limit, 200, limit.limit);
    expect(limit.limit).toBe(8);
    for (let i = 0; i < 20; i++) answer(limit, 200, limit.limit);
    expect(limit.limit).toBe(16);
    expect(changes.at(-1)).toBe(16);
  });

  test('answers that come back at once do not grow the limit: waiting is not what bounds the run', () => {
    const limit = new AdaptiveLimit({ initial: 4, max: 16 });
    for (let i = 0; i < 50; i++) answer(limit, 200, 4, { latencyMs: 2 });
    expect(limit.limit).toBe(4);
  });

  test('answers that waited in a queue (twice the route\'s fastest) hold the limit; each route is judged against its own', () => {
    const limit = new AdaptiveLimit({ initial: 4, max: 16 });
    answer(limit, 200, 1, { route: 'GET /models', latencyMs: 30 });
    answer(limit, 200, 1, { route: 'POST /chat/completions', latencyMs: 800 });
    for (let i = 0; i < 8; i++) answer(limit, 200, 4, { route: 'GET /models', latencyMs: 90 });
    expect(limit.limit).toBe(4); // three times the fastest model list: queueing
    for (let i = 0; i < 4; i++) answer(limit, 200, 4, { route: 'POST /chat/completions', latencyMs: 850 });
    expect(limit.limit).toBe(8); // a completion is not slow for being slower than a model list
  });

  test('a limit the run never half fills does not grow', () => {
    const limit = new AdaptiveLimit({ initial: 5, max: 16 });
    for (let i = 0; i < 50; i++) answer(limit, 200, 2, { busy: 2 });
    expect(limit.limit).toBe(5);
  });

  test('a 429 halves the limit once per round trip, and after it the limit grows by one per round trip', () => {
    const limit = new AdaptiveLimit({ initial: 8, max: 16 });
    const epoch = limit.dispatched();
    answer(limit, 429, 8);
    expect(limit.limit).toBe(4);
    // Other attempts sent in the same burst are turned away too: one signal, not three.
    for (let i = 0; i < 3; i++) limit.answered({ status: 429, inFlight: 8, latencyMs: 5, epoch, headers: {} });
    expect(limit.limit).toBe(4);
    for (let i = 0; i < 4; i++) answer(limit, 200, 4);
    expect(limit.limit).toBe(5);
    for (let i = 0; i < 4; i++) answer(limit, 200, 5);
    expect(limit.limit).toBe(5); // 4 of the 5 answers a round trip at 5 needs
    answer(limit, 200, 5);
    expect(limit.limit).toBe(6);
    expect(limit.stats()).toMatchObject({ decreases: 1, adaptive: true });
  });

  test('503 backs off as 429 does; the limit never goes below 1', () => {
    const limit = new AdaptiveLimit({ initial: 1, max: 4 });
    answer(limit, 503, 1);
    expect(limit.limit).toBe(1);
  });

  test('reached: the most in flight the endpoint took, below the least it turned away', () => {
    const limit = new AdaptiveLimit({ initial: 4, max: 16 });
    answer(limit, 200, 7);
    expect(limit.stats().reached).toBe(7);
    answer(limit, 429, 7);
    expect(limit.stats().reached).toBe(6);
    answer(limit, 200, 5);
    expect(limit.stats().reached).toBe(6);
  });

  test('a rate-limit header saying fewer are left than the limit brings the limit down to it', () => {
    const limit = new AdaptiveLimit({ initial: 8, max: 16 });
    answer(limit, 200, 8, { headers: { 'x-ratelimit-remaining-requests': '3' } });
    expect(limit.limit).toBe(3);
    // Still 3 left: the limit does not grow past what the endpoint says it has.
    for (let i = 0; i < 10; i++) answer(limit, 200, 3, { headers: { 'x-ratelimit-remaining-requests': '3' } });
    expect(limit.limit).toBe(3);
    // A budget far above the limit is no reason to hold back.
    for (let i = 0; i < 10; i++) answer(limit, 200, limit.limit, { headers: { 'ratelimit-remaining': '9999' } });
    expect(limit.limit).toBeGreaterThan(3);
  });

  test('an answer far slower than the fastest brings the limit down; silence does too', () => {
    const limit = new AdaptiveLimit({ initial: 8, max: 16 });
    answer(limit, 200, 1, { latencyMs: 500 });
    answer(limit, 200, 1, { latencyMs: 1_900 });
    expect(limit.limit).toBe(8); // slower, but within 4x the fastest
    answer(limit, 200, 8, { latencyMs: 5_000 });
    expect(limit.limit).toBe(4);
    limit.silent(limit.dispatched());
    expect(limit.limit).toBe(2);
  });

  test('--concurrency N fixes the limit: nothing moves it, and reached is still measured', () => {
    const limit = new AdaptiveLimit(concurrencyPolicyOf(3));
    for (let i = 0; i < 10; i++) answer(limit, 200, 3);
    answer(limit, 429, 3);
    expect(limit.limit).toBe(3);
    expect(limit.stats()).toEqual({ initial: 3, max: 3, adaptive: false, limit: 3, highest: 3, reached: 2, decreases: 0, changes: [], changesOmitted: 0 });
  });

  test('it climbs past 16 while answers come back as fast as at rest, to the cap, and says so as one climb', () => {
    let t = 0;
    const limit = new AdaptiveLimit(concurrencyPolicyOf(undefined), () => undefined, () => t);
    expect(limit.policy).toEqual({ initial: 4, max: 64 });
    for (let i = 0; i < 200 && limit.limit < 64; i++) {
      t += 50;
      answer(limit, 200, limit.limit, { latencyMs: 800 });
    }
    expect(limit.limit).toBe(64);
    expect(limit.stats()).toMatchObject({ highest: 64, decreases: 0, changes: [{ sinceMs: 50, from: 4, to: 64, why: { kind: 'flat', latencyMs: 800 } }], changesOmitted: 0 });
  });

  test('--max-in-flight below the adaptive cap is the cap; above it, the adaptive cap stands', () => {
    expect(concurrencyPolicyOf(undefined, 10)).toEqual({ initial: 4, max: 10 });
    expect(concurrencyPolicyOf(undefined, 2)).toEqual({ initial: 2, max: 2 });
    expect(concurrencyPolicyOf(undefined, 320)).toEqual({ initial: 4, max: 64 });
    expect(concurrencyPolicyOf(8, 2)).toEqual({ initial: 8, max: 8 });
  });

  test('a queue building (the short window\'s latency above 1.5 times the long one\'s) brings the limit down by their ratio, before any refusal', () => {
    const limit = new AdaptiveLimit({ initial: 32, max: 64 });
    for (let i = 0; i < 64; i++) answer(limit, 200, 32, { latencyMs: 400 });
    expect(limit.limit).toBe(64);
    const before = limit.limit;
    // Answers now wait behind others: 3x the usual latency, and rising in the short window first.
    for (let i = 0; i < 6 && limit.limit === before; i++) answer(limit, 200, 64, { latencyMs: 1_200 });
    expect(limit.limit).toBeLessThan(before);
    expect(limit.limit).toBeGreaterThanOrEqual(before / 2);
    const change = limit.stats().changes.at(-1)!;
    expect(change.why.kind).toBe('slower');
    if (change.why.kind === 'slower') expect(change.why.shortMs).toBeGreaterThan(1.5 * change.why.longMs);
    expect(limit.stats().decreases).toBe(1);
  });

  test('answers of varied length that never queue past twice the fastest do not bring it down', () => {
    const limit = new AdaptiveLimit({ initial: 16, max: 64 });
    for (let i = 0; i < 300; i++) answer(limit, 200, limit.limit, { latencyMs: i % 3 === 0 ? 500 : 900 });
    expect(limit.stats().decreases).toBe(0);
    expect(limit.limit).toBe(64);
  });

  test('refusals never bring it down, however slowly they come (a gateway retrying them upstream); one that took a wait worth sharing grows it', () => {
    const limit = new AdaptiveLimit({ initial: 8, max: 64 });
    answer(limit, 200, 1, { latencyMs: 300 });
    for (let i = 0; i < 8; i++) answer(limit, 400, 8, { latencyMs: 6_000 });
    expect(limit.limit).toBe(16);
    // Said as what it was: refusals waited on, not answers as fast as at rest.
    expect(limit.stats().changes).toEqual([{ sinceMs: expect.any(Number), atMs: expect.any(Number), from: 8, to: 16, why: { kind: 'waiting', latencyMs: 6_000 } }]);
    for (let i = 0; i < 50; i++) answer(limit, 404, 16, { latencyMs: 20 });
    expect(limit.limit).toBe(16); // refused at once: nothing waited on
    expect(limit.stats().decreases).toBe(0);
  });

  test('after a 429 at some count in flight, the limit never grows to that count again: the endpoint said what it takes', () => {
    const limit = new AdaptiveLimit({ initial: 4, max: 64 });
    for (let i = 0; i < 4; i++) answer(limit, 200, 4, { latencyMs: 500 });
    answer(limit, 429, 7);
    expect(limit.limit).toBe(4);
    for (let i = 0; i < 200; i++) answer(limit, 200, limit.limit, { latencyMs: 500 });
    expect(limit.limit).toBe(6);
    expect(limit.stats().reached).toBe(6);
  });

  test('each decrease is kept with its evidence: the status, the latency, silence, the header', () => {
    let t = 0;
    const limit = new AdaptiveLimit({ initial: 16, max: 64 }, () => undefined, () => t);
    t = 1_000;
    answer(limit, 429, 16);
    t = 2_000;
    answer(limit, 200, 8, { latencyMs: 100 });
    answer(limit, 200, 8, { latencyMs: 5_000 });
    t = 3_000;
    limit.silent(limit.dispatched());
    answer(limit, 200, 1, { latencyMs: 100, headers: { 'x-ratelimit-remaining-requests': '0' } });
    expect(limit.stats().changes).toEqual([
      { sinceMs: 1_000, atMs: 1_000, from: 16, to: 8, why: { kind: 'refused', status: 429 } },
      { sinceMs: 2_000, atMs: 2_000, from: 8, to: 4, why: { kind: 'overloaded', latencyMs: 5_000, fastestMs: 100 } },
      { sinceMs: 3_000, atMs: 3_000, from: 4, to: 2, why: { kind: 'silent' } },
      { sinceMs: 3_000, atMs: 3_000, from: 2, to: 1, why: { kind: 'remaining', remaining: 0 } },
    ]);
    expect(limit.stats().decreases).toBe(4);
  });

  test('a limit that flaps keeps its first changes and counts the rest', () => {
    const limit = new AdaptiveLimit({ initial: 2, max: 64 });
    for (let i = 0; i < 100; i++) {
      for (let j = 0; j < 4; j++) answer(limit, 200, limit.limit, { latencyMs: 200 });
      answer(limit, 200, limit.limit, { latencyMs: 5_000 });
    }
    const { changes, changesOmitted, decreases } = limit.stats();
    expect(changes).toHaveLength(40);
    expect(changesOmitted).toBeGreaterThan(0);
    expect(decreases).toBeGreaterThan(20);
  });

  test('a policy that makes no sense is refused with its values', () => {
    expect(() => new AdaptiveLimit({ initial: 0, max: 4 })).toThrow(/got 0 and 4/);
    expect(() => new AdaptiveLimit({ initial: 5, max: 4 })).toThrow(RangeError);
  });
});
