import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from './concurrency.ts';

describe('ConcurrencyLimiter', () => {
  it('admits up to the limit, then refuses', () => {
    const limiter = new ConcurrencyLimiter(2);
    expect(limiter.tryAcquire('sk-a')).toBeTypeOf('function');
    expect(limiter.tryAcquire('sk-a')).toBeTypeOf('function');
    expect(limiter.tryAcquire('sk-a')).toBeUndefined();
    expect(limiter.inFlight('sk-a')).toBe(2);
  });

  it('a release frees one slot', () => {
    const limiter = new ConcurrencyLimiter(1);
    const release = limiter.tryAcquire('sk-a')!;
    expect(limiter.tryAcquire('sk-a')).toBeUndefined();
    release();
    expect(limiter.inFlight('sk-a')).toBe(0);
    expect(limiter.tryAcquire('sk-a')).toBeTypeOf('function');
  });

  it('release is idempotent: a second call frees nothing more', () => {
    const limiter = new ConcurrencyLimiter(2);
    const first = limiter.tryAcquire('sk-a')!;
    limiter.tryAcquire('sk-a');
    first();
    first();
    first();
    expect(limiter.inFlight('sk-a')).toBe(1);
    expect(limiter.tryAcquire('sk-a')).toBeTypeOf('function');
    expect(limiter.tryAcquire('sk-a')).toBeUndefined();
  });

  it('a stale release cannot free a slot taken after it', () => {
    const limiter = new ConcurrencyLimiter(1);
    const old = limiter.tryAcquire('sk-a')!;
    old();
    limiter.tryAcquire('sk-a');
    old();
    expect(limiter.inFlight('sk-a')).toBe(1);
    expect(limiter.tryAcquire('sk-a')).toBeUndefined();
  });

  it('keys are independent', () => {
    const limiter = new ConcurrencyLimiter(1);
    const a = limiter.tryAcquire('sk-a')!;
    expect(limiter.tryAcquire('sk-a')).toBeUndefined();
    const b = limiter.tryAcquire('sk-b');
    expect(b).toBeTypeOf('function');
    b!();
    expect(limiter.inFlight('sk-a')).toBe(1);
    a();
    expect(limiter.inFlight('sk-a')).toBe(0);
    expect(limiter.inFlight('sk-b')).toBe(0);
  });

  it('a limit of 0 refuses everything; a bad limit is refused', () => {
    expect(new ConcurrencyLimiter(0).tryAcquire('sk-a')).toBeUndefined();
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new ConcurrencyLimiter(bad)).toThrow(/limitPerKey must be a non-negative integer/);
    }
  });
});
