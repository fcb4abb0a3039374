import { describe, expect, test } from 'vitest';
import { Semaphore } from './semaphore.ts';

describe('Semaphore', () => {
  test('hands slots out first come first served and remembers its peak', async () => {
    const sem = new Semaphore(2);
    const order: number[] = [];
    await sem.acquire();
    await sem.acquire();
    expect(sem.tryAcquire()).toBe(false);
    const waiting = [1, 2, 3].map((n) => sem.acquire().then(() => order.push(n)));
    expect(sem.waiting).toBe(3);
    sem.release();
    sem.release();
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual([1, 2]);
    expect(sem.tryAcquire()).toBe(false); // 3 is still first in line
    sem.release();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
    expect(sem.active).toBe(2);
    expect(sem.peak).toBe(2);
    sem.release();
    sem.release();
    expect(sem.active).toBe(0);
    expect(() => sem.release()).toThrow(/more often/);
  });

  test('size must be an integer >= 1', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
    expect(() => new Semaphore(1.5)).toThrow(RangeError);
  });
});

describe('Semaphore.resize', () => {
  test('a larger size hands the freed slots to the waiters at once, in their order', async () => {
    const sem = new Semaphore(1);
    await sem.acquire();
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) => sem.acquire().then(() => order.push(n)));
    sem.resize(3);
    await Promise.resolve();
    expect(order).toEqual([1, 2]);
    expect(sem.active).toBe(3);
    expect(sem.waiting).toBe(1);
    sem.release();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
  });

  test('a smaller size holds new takers back until enough slots are released', async () => {
    const sem = new Semaphore(3);
    for (let i = 0; i < 3; i++) await sem.acquire();
    sem.resize(1);
    let got = false;
    const waiting = sem.acquire().then(() => (got = true));
    sem.release();
    sem.release();
    await Promise.resolve();
    expect(got).toBe(false); // one slot is still held: the size is 1
    expect(sem.active).toBe(1);
    sem.release();
    await waiting;
    expect(got).toBe(true);
    expect(sem.active).toBe(1);
    expect(() => sem.resize(0)).toThrow(RangeError);
  });
});

test('a higher priority goes ahead in line; equal priorities keep their order', async () => {
  const sem = new Semaphore(1);
  await sem.acquire();
  const order: string[] = [];
  const waiting = [
    sem.acquire(0).then(() => order.push('a0')),
    sem.acquire(9).then(() => order.push('b9')),
    sem.acquire(0).then(() => order.push('c0')),
    sem.acquire(9).then(() => order.push('d9')),
  ];
  for (let i = 0; i < 4; i++) {
    sem.release();
    await Promise.resolve();
  }
  await Promise.all(waiting);
  expect(order).toEqual(['b9', 'd9', 'a0', 'c0']);
});
