import { describe, expect, test } from 'vitest';
import { parseQuantity } from './quantity.ts';

describe('parseQuantity', () => {
  test('keeps an integer exact', () => {
    expect(parseQuantity(384000)).toEqual({ low: 384000, high: 384000, asWritten: '384000', exact: true });
  });
  test('reads K and M under both the decimal and the binary reading', () => {
    expect(parseQuantity('8K')).toMatchObject({ low: 8000, high: 8192, exact: false });
    expect(parseQuantity('1M')).toMatchObject({ low: 1_000_000, high: 1_048_576 });
    expect(parseQuantity('128K')).toMatchObject({ low: 128_000, high: 131_072 });
  });
  test('an unspecified quantity has no range', () => {
    expect(parseQuantity({ unspecified: true })).toBeUndefined();
  });
  test('refuses text that is not a quantity', () => {
    expect(() => parseQuantity('eight')).toThrow(/not a quantity/);
  });
});
