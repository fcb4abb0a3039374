import { describe, expect, test } from 'vitest';
import { addUsd, sumUsage } from './usage.ts';

describe('addUsd', () => {
  test('adds exactly, keeping the finest precision', () => {
    expect(addUsd('0.1', '0.2')).toBe('0.3');
    expect(addUsd('0.0000209', '1.5')).toBe('1.5000209');
    expect(addUsd('0.99', '0.01')).toBe('1.00');
    expect(addUsd('3', '4')).toBe('7');
    expect(addUsd()).toBe('0');
  });

  test('refuses what is not a decimal amount', () => {
    expect(() => addUsd('1e-3')).toThrow(/not a decimal USD amount: "1e-3"/);
    expect(() => addUsd('-1')).toThrow(/not a decimal/);
  });
});

describe('sumUsage', () => {
  test('adds tokens and cost', () => {
    expect(
      sumUsage([
        { promptTokens: 1, completionTokens: 2, cacheHitTokens: 3, costUsd: '0.001' },
        { promptTokens: 10, completionTokens: 20, cacheHitTokens: 30, costUsd: '0.0005' },
      ]),
    ).toEqual({ promptTokens: 11, completionTokens: 22, cacheHitTokens: 33, costUsd: '0.0015' });
  });
});
