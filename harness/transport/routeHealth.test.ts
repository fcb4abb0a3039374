import { describe, expect, test } from 'vitest';
import { RouteHealth } from './routeHealth.ts';

const CHAT = 'POST /chat/completions';
const STREAM = 'POST /chat/completions (streamed)';
const MODELS = 'GET /models';

describe('RouteHealth: only silence is unresponsive, and only where it is silent', () => {
  test('no answer three times in a row declares that route alone: the other routes are still sent', () => {
    const h = new RouteHealth();
    for (let i = 1; i <= 3; i++) h.silent(CHAT, `HARNESS_RESET: reset (${i})`);
    expect(h.refusal(CHAT)).toBe('POST /chat/completions was declared unresponsive: 3 requests in a row got no answer; the first: HARNESS_RESET: reset (1)');
    expect(h.refusal(STREAM)).toBeUndefined();
    expect(h.refusal(MODELS)).toBeUndefined();
  });

  test('a timeout declares its route at once: the next check does not wait again', () => {
    const h = new RouteHealth();
    h.silent(STREAM, 'HARNESS_TIMEOUT: response body stalled for 60000 ms', { timedOut: true });
    expect(h.refusal(STREAM)).toBe('POST /chat/completions (streamed) was declared unresponsive: a request waited its whole timeout: HARNESS_TIMEOUT: response body stalled for 60000 ms');
    expect(h.refusal(CHAT)).toBeUndefined();
  });

  test('a minimal valid request with no answer declares its route at once', () => {
    const h = new RouteHealth();
    h.silent(CHAT, 'HARNESS_CONNECT: refused', { probe: true });
    expect(h.refusal(CHAT)).toBe('POST /chat/completions was declared unresponsive: a minimal valid request got no answer: HARNESS_CONNECT: refused');
  });

  test('an answer, whatever its status, clears the route: silences must be in a row', () => {
    const h = new RouteHealth();
    h.silent(CHAT, 'a');
    h.silent(CHAT, 'b');
    h.answered(CHAT);
    h.silent(CHAT, 'c');
    expect(h.refusal(CHAT)).toBeUndefined();
  });

  test('the whole endpoint only when its root and several routes are silent', () => {
    const h = new RouteHealth();
    h.silent(CHAT, 'HARNESS_CONNECT: refused');
    h.root('a probe of http://x/ failed: connection refused');
    // One silent route and a silent root: still only that route's business.
    expect(h.down).toBe(false);
    h.silent(MODELS, 'HARNESS_CONNECT: refused');
    expect(h.down).toBe(true);
    expect(h.refusal('GET /user/balance')).toBe('the endpoint was declared unresponsive: 2 routes got no answer (POST /chat/completions, GET /models), and a probe of http://x/ failed: connection refused');
  });

  test('routes silent while the root answers: the endpoint is not declared', () => {
    const h = new RouteHealth();
    for (const r of [CHAT, STREAM, MODELS]) h.silent(r, 'HARNESS_TIMEOUT', { timedOut: true });
    h.root(undefined);
    expect(h.down).toBe(false);
    expect(h.refusal('GET /user/balance')).toBeUndefined();
  });
});
