import { describe, expect, it } from 'vitest';
import { Capacity } from './capacity.ts';

const settled = async <T>(p: Promise<T>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('Capacity', () => {
  it('admits up to its size, queues up to its bound, then refuses', async () => {
    const cap = new Capacity(2, 1);
    expect(await cap.acquire()).toBeTypeOf('function');
    expect(await cap.acquire()).toBeTypeOf('function');
    const waiting = cap.acquire();
    expect(waiting).toBeInstanceOf(Promise);
    expect(await settled(waiting!)).toBe(false);
    expect(cap.acquire()).toBeUndefined();
    expect({ inFlight: cap.inFlight, queued: cap.queued }).toEqual({ inFlight: 2, queued: 1 });
  });

  it('a freed slot goes to the longest waiter, first in first out, and in flight stays at the size', async () => {
    const cap = new Capacity(1, 3);
    const first = (await cap.acquire())!;
    const order: number[] = [];
    const waiters = [0, 1, 2].map((i) => cap.acquire()!.then((release) => (order.push(i), release!)));
    first();
    const r0 = await waiters[0]!;
    expect({ order, inFlight: cap.inFlight, queued: cap.queued }).toEqual({ order: [0], inFlight: 1, queued: 2 });
    r0();
    (await waiters[1]!)();
    (await waiters[2]!)();
    expect({ order, inFlight: cap.inFlight, queued: cap.queued }).toEqual({ order: [0, 1, 2], inFlight: 0, queued: 0 });
  });

  it('a release frees its slot once, however often it is called', async () => {
    const cap = new Capacity(1, 0);
    const release = (await cap.acquire())!;
    release();
    release();
    expect(cap.inFlight).toBe(0);
    await cap.acquire();
    release();
    expect(cap.inFlight).toBe(1);
  });

  it('a waiter whose signal aborts leaves the queue with no slot', async () => {
    const cap = new Capacity(1, 2);
    const held = (await cap.acquire())!;
    const gone = new AbortController();
    const leaving = cap.acquire(gone.signal)!;
    const staying = cap.acquire()!;
    gone.abort();
    expect(await leaving).toBeUndefined();
    expect(cap.queued).toBe(1);
    held();
    expect(await staying).toBeTypeOf('function');
    expect(cap.inFlight).toBe(1);
    expect(await cap.acquire(AbortSignal.abort())).toBeUndefined();
  });

  it('a queue bound of 0 refuses at once when full; bad sizes are refused', () => {
    const cap = new Capacity(1, 0);
    void cap.acquire();
    expect(cap.acquire()).toBeUndefined();
    expect(() => new Capacity(0, 0)).toThrow(/size must be a positive integer/);
    expect(() => new Capacity(1.5, 0)).toThrow(/size must be a positive integer/);
    expect(() => new Capacity(1, -1)).toThrow(/queueBound must be a non-negative integer/);
  });
});
