import { describe, expect, test } from 'vitest';
import { EndpointHealth, RetryBudget } from './endpointHealth.ts';

const CHAT = 'POST /chat/completions';
const MODELS = 'GET /models';

describe('EndpointHealth', () => {
  test('no answer on several paths declares each path, not the endpoint: whether the server is down, the probe of its root tells', () => {
    const h = new EndpointHealth();
    for (const path of [CHAT, MODELS, CHAT, MODELS, CHAT]) h.failed('HARNESS_RESET: reset', path, true);
    expect(h.refusal(CHAT)).toMatch(/^POST \/chat\/completions was declared unresponsive: 3 requests in a row got no answer/);
    expect(h.refusal(MODELS)).toBeUndefined();
    expect(h.refusal('GET /user/balance')).toBeUndefined();
    h.down('a probe of / got no answer either');
    expect(h.refusal('GET /user/balance')).toBe('the endpoint was declared unresponsive: a probe of / got no answer either');
  });

  test('a minimal valid request with no answer declares its path at once', () => {
    const h = new EndpointHealth();
    h.failed('HARNESS_TIMEOUT: no headers', CHAT, true, true);
    expect(h.refusal(CHAT)).toBe('POST /chat/completions was declared unresponsive: a minimal valid request got no answer: HARNESS_TIMEOUT: no headers');
  });

  test('one path with no answer three times is declared alone: the other paths are still sent', () => {
    const h = new EndpointHealth();
    for (let i = 1; i <= 3; i++) h.failed(`HARNESS_TIMEOUT: stalled (${i})`, CHAT, true);
    expect(h.refusal(CHAT)).toBe('POST /chat/completions was declared unresponsive: 3 requests in a row got no answer; the first: HARNESS_TIMEOUT: stalled (1)');
    expect(h.refusal(MODELS)).toBeUndefined();
  });

  test('5xx on one path, however many, stops nothing (a server refusing one kind of request with 500)', () => {
    const h = new EndpointHealth();
    for (let i = 0; i < 50; i++) h.failed('HTTP 500', CHAT, false);
    expect(h.refusal(CHAT)).toBeUndefined();
    h.failed('HTTP 500', MODELS, false);
    expect(h.refusal(CHAT)).toMatch(/^the endpoint was declared unresponsive: 51 requests in a row, on 2 paths/);
  });

  test('an answer clears the run: failures must be consecutive', () => {
    const h = new EndpointHealth();
    h.failed('a', CHAT, true);
    h.failed('b', MODELS, true);
    h.alive(MODELS);
    h.failed('c', CHAT, true);
    expect(h.refusal(CHAT)).toBeUndefined();
    expect(h.refusal(MODELS)).toBeUndefined();
  });
});

describe('RetryBudget', () => {
  test('5xx retries are counted down; 429 is never counted', () => {
    const b = new RetryBudget(2);
    expect([b.take(500), b.take(503), b.take(500), b.take(429), b.take(429)]).toEqual([true, true, false, true, true]);
  });
});
