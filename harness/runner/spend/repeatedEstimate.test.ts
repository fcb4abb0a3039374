import { describe, expect, test } from 'vitest';
import type { CostEstimate } from '#harness/results/index.ts';
import { repeatedEstimate } from './repeatedEstimate.ts';

const once: CostEstimate = {
  method: 'plan-profile',
  requests: 94,
  expected: { promptTokens: 1200, completionTokens: 1046, costUsd: '0.000383' },
  upperBound: { promptTokens: 9000, completionTokens: 384000, costUsd: '0.540001', uncappedRequests: 2 },
};

describe('repeatedEstimate', () => {
  test('--repeat 3 costs three runs: requests, tokens and USD (exactly, no float) times 3', () => {
    expect(repeatedEstimate(once, 3)).toEqual({
      method: 'plan-profile',
      requests: 282,
      expected: { promptTokens: 3600, completionTokens: 3138, costUsd: '0.001149' },
      upperBound: { promptTokens: 27000, completionTokens: 1152000, costUsd: '1.620003', uncappedRequests: 6 },
    });
  });

  test('one run is the estimate itself', () => {
    expect(repeatedEstimate(once, 1)).toBe(once);
  });
});
