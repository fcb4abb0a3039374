import { describe, expect, test } from 'vitest';
import { wilsonInterval } from './wilson.ts';

describe('wilsonInterval', () => {
  test('known values (95%): 8 of 10, 0 of 1, 10 of 10', () => {
    const a = wilsonInterval(8, 10);
    expect(a.low).toBeCloseTo(0.4902, 3);
    expect(a.high).toBeCloseTo(0.9433, 3);
    expect(wilsonInterval(0, 1).high).toBeCloseTo(0.7935, 3);
    expect(wilsonInterval(10, 10).high).toBeCloseTo(1, 12);
  });
  test('no runs says nothing', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
});
