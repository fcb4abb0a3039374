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
