import { describe, expect, test } from 'vitest';
import { KeyRefusal } from './keyRefusal.ts';

describe('KeyRefusal', () => {
  test('the first THRESHOLD answers to the key all 401: declared, and said with the count', () => {
    const k = new KeyRefusal();
    for (let i = 1; i < KeyRefusal.THRESHOLD; i++) {
      k.answered(401);
      expect(k.refusal()).toBeUndefined();
    }
    k.answered(401);
    expect(k.declared()).toEqual({ status: 401, count: KeyRefusal.THRESHOLD });
    expect(k.refusal()).toBe(`the key was refused: every request carrying it was answered 401 (${KeyRefusal.THRESHOLD} of ${KeyRefusal.THRESHOLD})`);
  });

  test('any other answer below 500 first shows the key accepted: 401s afterwards never declare it', () => {
    const k = new KeyRefusal();
    k.answered(401);
    k.answered(404);
    for (let i = 0; i < 50; i++) k.answered(401);
    expect(k.declared()).toBeUndefined();
  });

  test('a 5xx or a 429 says nothing of the key: it neither counts nor accepts', () => {
    const k = new KeyRefusal();
    k.answered(401);
    k.answered(503);
    k.answered(429);
    k.answered(500);
    k.answered(401);
    expect(k.declared()).toBeUndefined();
    k.answered(401);
    expect(k.declared()).toEqual({ status: 401, count: 3 });
  });

  test('a 403 is not a refused key (a key the endpoint knows, forbidden something): it accepts', () => {
    const k = new KeyRefusal();
    k.answered(403);
    for (let i = 0; i < 5; i++) k.answered(401);
    expect(k.declared()).toBeUndefined();
  });
});
