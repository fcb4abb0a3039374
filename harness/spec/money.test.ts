import { describe, expect, it } from 'vitest';
import { formatUsd, parseUsd, PICO_PER_USD } from './money.ts';

describe('parseUsd', () => {
  it('reads decimal strings as exact pico-dollars', () => {
    expect(parseUsd('0.014')).toBe(14_000_000_000n);
    expect(parseUsd('4.99')).toBe(4_990_000_000_000n);
    expect(parseUsd('5')).toBe(5n * PICO_PER_USD);
    expect(parseUsd('0')).toBe(0n);
    expect(parseUsd('-1.50')).toBe(-1_500_000_000_000n);
    expect(parseUsd('0.000000000001')).toBe(1n);
    expect(parseUsd('123456789.123456789012')).toBe(123_456_789_123_456_789_012n);
  });

  it('a price per 1M tokens divides into whole pico-dollars per token', () => {
    expect(parseUsd('0.014') / 1_000_000n).toBe(14_000n);
    expect(parseUsd('0.014') % 1_000_000n).toBe(0n);
  });

  it('accepts trailing zeros beyond pico precision, since they are still exact', () => {
    expect(parseUsd('1.0000000000000')).toBe(PICO_PER_USD);
  });

  it.each(['', ' 1', '1 ', '.5', '1.', '1e3', '+1', '1,5', 'abc', '--1', '0x10', '1.2.3', 'NaN'])('refuses %j', (text) => {
    expect(() => parseUsd(text)).toThrow(/parseUsd: not a decimal USD amount/);
  });

  it('refuses amounts finer than a pico-dollar', () => {
    expect(() => parseUsd('0.0000000000001')).toThrow(/finer than a pico-dollar/);
  });

  it('refuses a value that is not a string', () => {
    // @ts-expect-error: a number is the mistake being tested
    expect(() => parseUsd(4.99)).toThrow(/expected a decimal string/);
  });
});

describe('formatUsd', () => {
  it('prints two decimals by default', () => {
    expect(formatUsd(4_990_000_000_000n)).toBe('4.99');
    expect(formatUsd(0n)).toBe('0.00');
    expect(formatUsd(5n * PICO_PER_USD)).toBe('5.00');
  });

  it('truncates toward zero', () => {
    expect(formatUsd(parseUsd('4.999999'))).toBe('4.99');
    expect(formatUsd(parseUsd('-4.999999'))).toBe('-4.99');
    expect(formatUsd(parseUsd('0.009'))).toBe('0.00');
  });

  it('keeps the sign of negative amounts, but not of a truncated zero', () => {
    expect(formatUsd(parseUsd('-2.5'))).toBe('-2.50');
    expect(formatUsd(parseUsd('-0.001'))).toBe('0.00');
  });

  it('honours other precisions', () => {
    expect(formatUsd(14_000n, 12)).toBe('0.000000014000');
    expect(formatUsd(parseUsd('0.435'), 3)).toBe('0.435');
    expect(formatUsd(parseUsd('7.9'), 0)).toBe('7');
    expect(formatUsd(parseUsd('-7.9'), 0)).toBe('-7');
  });

  it('round-trips with parseUsd at full precision', () => {
    for (const text of ['0.014000000000', '1234.567890123456', '-0.000000000001']) {
      expect(formatUsd(parseUsd(text), 12)).toBe(text);
    }
  });

  it.each([-1, 13, 1.5, Number.NaN])('refuses decimals = %s', (decimals) => {
    expect(() => formatUsd(1n, decimals)).toThrow(/decimals must be an integer from 0 to 12/);
  });
});
