/**
 * The emulator under load: its capacity across keys (`capacity`, `queueBound`), the streams it
 * slows as the load rises, and what "in flight" counts for the load faults. Driven in-process, as
 * a function of a Request; each fault's own behaviour at and over its threshold is in
 * faults/faults.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { createApp } from './app.ts';
import { createContext } from './context.ts';
import { CROSSED_IN_FLIGHT, FAULTS, inFlightAbove, UNDER_LOAD_IN_FLIGHT } from './faults/catalogue.ts';
import type { EmulatorOptions } from './options.ts';

const { spec } = loadSpec();
const KEY = 'sk-load-a';
const OTHER_KEY = 'sk-load-b';

function emulator(options: Partial<EmulatorOptions> = {}) {
  const ctx = createContext({ spec, apiKeys: [KEY, OTHER_KEY], now: () => new Date('2026-06-01T00:00:00Z'), ...options });
  const app = createApp(ctx);
  const send = (body: unknown, init: { key?: string; signal?: AbortSignal } = {}) =>
    app(new Request('http://emulator/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${init.key ?? KEY}` }, body: JSON.stringify(body), ...(init.signal ? { signal: init.signal } : {}) }));
  return { ctx, send };
}

const chat = (text = 'Repeat: hello', extra: Record<string, unknown> = {}) => ({ model: 'svc-v4-flash', messages: [{ role: 'user', content: text }], ...extra });
/** A stream that takes seconds at 10 ms an event: held until the test cancels it. */
const longStream = () => chat(`Repeat: ${Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ')}`, { stream: true });
const tick = () => new Promise((r) => setTimeout(r, 5));

/** Whether `p` has settled by the next few turns of the event loop. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await tick();
  return done;
}

describe('capacity: requests in flight across every key', () => {
  test('beyond it requests wait in a FIFO queue; once the queue is full, 429 with Retry-After and the error envelope', async () => {
    const { ctx, send } = emulator({ capacity: 2, queueBound: 2, streamIntervalMs: 10 });
    // Two keys: the limit is the service's, not a key's.
    const held = [await send(longStream()), await send(longStream(), { key: OTHER_KEY })];
    const queued = [send(chat('Repeat: first')), send(chat('Repeat: second'), { key: OTHER_KEY })];
    const refused = await send(chat());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ error: { message: expect.stringContaining('capacity'), type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' } });
    expect({ inFlight: ctx.capacity?.inFlight, queued: ctx.capacity?.queued, settled: await settled(Promise.race(queued)) }).toEqual({ inFlight: 2, queued: 2, settled: false });

    // A slot freed goes to the first waiter; the second waits on.
    await held[0]!.body!.cancel();
    const first = await queued[0]!;
    expect({ status: first.status, content: ((await first.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content }).toEqual({ status: 200, content: 'first' });
    // The first answered and left: its slot went to the second.
    expect((await queued[1]!).status).toBe(200);
    await held[1]!.body!.cancel();
    expect({ inFlight: ctx.capacity?.inFlight, queued: ctx.capacity?.queued, requests: ctx.inFlight.count }).toEqual({ inFlight: 0, queued: 0, requests: 0 });
  });

  test('a stream holds its slot until its last event', async () => {
    const { ctx, send } = emulator({ capacity: 1, streamIntervalMs: 2 });
    const stream = await send(chat('Repeat: a b c', { stream: true }));
    const waiting = send(chat());
    expect(await settled(waiting)).toBe(false);
    expect(await stream.text()).toContain('data: [DONE]');
    expect((await waiting).status).toBe(200);
    expect(ctx.capacity?.inFlight).toBe(0);
  });

  test('the queue bound defaults to the capacity; 0 refuses at once', async () => {
    const { ctx } = emulator({ capacity: 3 });
    expect(ctx.capacity?.queueBound).toBe(3);
    const { send } = emulator({ capacity: 1, queueBound: 0, streamIntervalMs: 10 });
    const held = await send(longStream());
    expect((await send(chat())).status).toBe(429);
    await held.body!.cancel();
    expect(() => emulator({ queueBound: 2 })).toThrow(/queueBound needs capacity/);
  });

  test('a client that leaves while queued frees everything it held, and gets nothing', async () => {
    const { ctx, send } = emulator({ capacity: 1, streamIntervalMs: 10 });
    const held = await send(longStream());
    const gone = new AbortController();
    const leaving = send(chat(), { signal: gone.signal });
    await tick();
    expect({ queued: ctx.capacity?.queued, key: ctx.limiter.inFlight(KEY), requests: ctx.inFlight.count }).toEqual({ queued: 1, key: 2, requests: 2 });
    gone.abort();
    expect((await leaving).type).toBe('error');
    expect({ queued: ctx.capacity?.queued, key: ctx.limiter.inFlight(KEY), requests: ctx.inFlight.count }).toEqual({ queued: 0, key: 1, requests: 1 });
    await held.body!.cancel();
  });

  test('without a capacity nothing waits: the per-key limit alone refuses', async () => {
    const { ctx, send } = emulator({ concurrencyPerKey: 2, streamIntervalMs: 10 });
    expect(ctx.capacity).toBeUndefined();
    const held = [await send(longStream()), await send(longStream()), await send(longStream(), { key: OTHER_KEY })];
    const refused = await send(chat());
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('for this key');
    for (const h of held) await h.body!.cancel();
  });
});

describe('streams slow down as the load rises', () => {
  test('the pause between events: max(interval, 1) x (1 + slots in use / capacity); without a capacity, the interval', async () => {
    const { ctx, send } = emulator({ capacity: 4, streamIntervalMs: 10 });
    const pauses = [ctx.streamPause()];
    const held = [];
    for (let i = 0; i < 4; i++) {
      held.push(await send(longStream()));
      pauses.push(ctx.streamPause());
    }
    expect(pauses).toEqual([10, 13, 15, 18, 20]);
    for (const h of held) await h.body!.cancel();
    expect(emulator({ capacity: 4 }).ctx.streamPause()).toBe(1);
    expect(emulator({ streamIntervalMs: 10 }).ctx.streamPause()).toBe(10);
    expect(emulator().ctx.streamPause()).toBe(0);
  });

  test('a stream among a full capacity takes at least twice its events x the interval', async () => {
    const { send } = emulator({ capacity: 4, streamIntervalMs: 10 });
    const held = [await send(longStream()), await send(longStream()), await send(longStream())];
    const started = performance.now();
    const text = await (await send(chat('Repeat: one two three four five', { stream: true }))).text();
    const elapsed = performance.now() - started;
    const events = text.split('\n\n').filter((e) => e.startsWith('data:')).length;
    // A lower bound only (timers never fire early by more than a millisecond): at rest, events x 10 ms.
    expect(elapsed).toBeGreaterThanOrEqual(events * 20 * 0.9);
    for (const h of held) await h.body!.cancel();
  });
});

describe('what "in flight" counts for the load faults', () => {
  test('the faults of rate_limits.under_load wait for more than UNDER_LOAD_IN_FLIGHT; answers-crossed for more than CROSSED_IN_FLIGHT; no other fault waits', () => {
    const waits = Object.fromEntries(FAULTS.flatMap((f) => (inFlightAbove(f.id) === undefined ? [] : [[f.id, inFlightAbove(f.id)]])));
    const underLoad = FAULTS.filter((f) => f.breaks.startsWith('rate_limits.under_load.')).map((f) => [f.id, UNDER_LOAD_IN_FLIGHT]);
    expect(waits).toEqual({ ...Object.fromEntries(underLoad), 'answers-crossed': CROSSED_IN_FLIGHT });
    // One per rule of rate_limits.under_load, and two more for issue 47 (streams crossed, another model named).
    expect(underLoad).toHaveLength(8);
    expect(FAULTS.filter((f) => f.area === 'load').map((f) => f.id).sort()).toEqual(Object.keys(waits).sort());
  });

  test('every request from arrival until answered, every key and route; a refusal only while it is made', async () => {
    const { ctx, send } = emulator({ concurrencyPerKey: 1, streamIntervalMs: 10 });
    const held = await send(longStream());
    expect(ctx.inFlight.count).toBe(1);
    // Refused by the key's limit: counted while it was refused, not after.
    expect((await send(chat())).status).toBe(429);
    const other = await send(longStream(), { key: OTHER_KEY });
    expect(ctx.inFlight.count).toBe(2);
    await held.body!.cancel();
    await other.body!.cancel();
    expect(ctx.inFlight.count).toBe(0);
  });

  test('a hung request (load-requests-hung) counts until its client leaves, then frees what it held', async () => {
    const { ctx, send } = emulator({ faults: ['load-requests-hung'], concurrencyPerKey: 64, streamIntervalMs: 10 });
    const held = [];
    for (let i = 0; i < 8; i++) held.push(await send(longStream()));
    const gone = new AbortController();
    const hung = send(chat(), { signal: gone.signal });
    await tick();
    expect({ settled: await settled(hung), requests: ctx.inFlight.count, key: ctx.limiter.inFlight(KEY) }).toEqual({ settled: false, requests: 9, key: 8 });
    gone.abort();
    expect((await hung).type).toBe('error');
    expect(ctx.inFlight.count).toBe(8);
    for (const h of held) await h.body!.cancel();
    expect({ requests: ctx.inFlight.count, key: ctx.limiter.inFlight(KEY) }).toEqual({ requests: 0, key: 0 });
    // At rest again, answered.
    expect((await send(chat())).status).toBe(200);
  });
});
