import { describe, expect, test } from 'vitest';
import { HarnessError } from '#harness/core/errors/index.ts';
import type { CheckContext, CheckResponse } from '../context.ts';
import { readJson } from './body.ts';
import { sample } from './samples.ts';

/** A response whose json() gives `value`, or throws `error`. */
function answer(read: { value: unknown } | { error: Error }): CheckResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    exchange: { request: { method: 'POST', url: 'http://x/chat/completions', headers: {} }, attempts: 1 },
    text: () => Promise.reject(new Error('read as JSON')),
    json: () => ('error' in read ? Promise.reject(read.error) : Promise.resolve(read.value)),
    events: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('read as JSON')) }) }),
  };
}

const RESET = new HarnessError('HARNESS_RESET', 'the connection was reset — POST http://x/chat/completions');

describe('readJson: one policy for a JSON body', () => {
  test('a body that parses is handed over; one that does not says why, for the failure', async () => {
    expect(await readJson(answer({ value: { a: 1 } }))).toEqual({ ok: true, body: { a: 1 } });
    expect(await readJson(answer({ error: new Error('response body is not JSON (Unexpected token)') }))).toEqual({ ok: false, why: 'response body is not JSON (Unexpected token)' });
  });

  test('a harness error (reset, timeout) is not about the body: it is thrown on, so the check ends in error', async () => {
    await expect(readJson(answer({ error: RESET }))).rejects.toBe(RESET);
  });

  test('a shared sample follows it: a reset rejects the sample instead of passing for an unreadable body', async () => {
    const ctx = { targetModel: 'm', samples: new Map(), send: () => Promise.resolve(answer({ error: RESET })) } as unknown as CheckContext;
    await expect(sample(ctx, { base: 'base_url', method: 'POST', path: '/chat/completions', body: {} })).rejects.toBe(RESET);
    const bad = { targetModel: 'm', samples: new Map(), send: () => Promise.resolve(answer({ error: new Error('not JSON') })) } as unknown as CheckContext;
    await expect(sample(bad, { base: 'base_url', method: 'POST', path: '/chat/completions', body: {} })).resolves.toMatchObject({ unreadable: 'not JSON' });
  });

  test('a sample is kept in the run\'s own store: two runs of one model each send theirs', async () => {
    let sent = 0;
    const runOf = () => ({ targetModel: 'm', samples: new Map(), send: () => Promise.resolve(answer({ value: { n: ++sent } })) }) as unknown as CheckContext;
    const request = { base: 'base_url', method: 'POST' as const, path: '/chat/completions', body: {} };
    const [a, b] = [runOf(), runOf()];
    expect((await sample(a, request)).body).toEqual({ n: 1 });
    expect((await sample(a, { ...request, body: {} })).body).toEqual({ n: 1 });
    expect((await sample(b, request)).body).toEqual({ n: 2 });
    expect(sent).toBe(2);
  });

  test('an answer asked ahead of need that fails, and is then never awaited, is no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const ctx = { targetModel: 'm', samples: new Map(), send: () => Promise.reject(RESET) } as unknown as CheckContext;
      void sample(ctx, { base: 'base_url', method: 'GET', path: '/models' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      // Whoever does await it still sees the rejection.
      await expect(sample(ctx, { base: 'base_url', method: 'GET', path: '/models' })).rejects.toBe(RESET);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  test('a sample is keyed by the request itself: anything that differs (body, credential form, streaming) is another answer', async () => {
    let sent = 0;
    const ctx = { targetModel: 'm', samples: new Map(), send: () => Promise.resolve(answer({ value: { n: ++sent } })) } as unknown as CheckContext;
    const request = { base: 'base_url', method: 'POST' as const, path: '/chat/completions', body: { model: 'x' } };
    await sample(ctx, request);
    await sample(ctx, { ...request, body: { model: 'y' } });
    await sample(ctx, { ...request, auth: 'wrong' });
    await sample(ctx, { ...request, base: 'v1' });
    await sample(ctx, { ...request, body: { model: 'x' } });
    expect(sent).toBe(4);
  });
});
