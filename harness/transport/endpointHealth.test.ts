import { describe, expect, test } from 'vitest';
import { EndpointHealth, RetryBudget } from './endpointHealth.ts';

const CHAT = 'POST /chat/completions';
const MODELS = 'GET /models';

describe('EndpointHealth', () => {
  test('three requests in a row with no answer, on more than one path: the endpoint is declared, citing the first cause', () => {
    const h = new EndpointHealth();
    h.failed('HARNESS_CONNECT: refused (1)', CHAT, true);
    h.failed('HARNESS_CONNECT: refused (2)', MODELS, true);
    expect(h.refusal(MODELS)).toBeUndefined();
    h.failed('HARNESS_CONNECT: refused (3)', CHAT, true);
    expect(h.refusal('GET /user/balance')).toBe('the endpoint was declared unresponsive: 3 requests in a row, on 2 paths, failed; the first: HARNESS_CONNECT: refused (1)');
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
