import { expect, test } from 'vitest';
import { chainPriority, PRIORITY } from './priority.ts';

test('one scale: a rejoining retry, then probes, then checks by the round trips they have left, however many', () => {
  expect(PRIORITY.rejoin).toBeGreaterThan(PRIORITY.probe);
  expect(chainPriority(5_000)).toBe(5_000);
  expect(chainPriority(Number.MAX_SAFE_INTEGER)).toBeLessThan(PRIORITY.probe);
  expect(chainPriority(3)).toBeGreaterThan(chainPriority(1));
  expect(chainPriority(-2)).toBe(0);
});
