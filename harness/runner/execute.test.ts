import { describe, expect, test } from 'vitest';
import type { Check, CheckContext } from '#harness/checks/index.ts';
import { sample } from '#harness/checks/support/samples.ts';
import { NO_TOKENS } from '#harness/core/tokens.ts';
import { executeCheck } from './execute.ts';
import { BudgetReachedError } from './spend/BudgetReachedError.ts';

const check = (run: Check['run']): Check => ({ id: 'schema.x.y', title: 't', area: 'schema', severity: 'must', basis: 'stated', specRefs: [], appliesTo: () => true, run });

describe('executeCheck', () => {
  test('a shared answer the budget refused: every check reading it is skipped for budget, none ends in error', async () => {
    // The first check to ask was refused by the budget; the store hands the others the same refusal.
    const refused = new BudgetReachedError('0.01', '0.01');
    const ctx = { model: 'm', targetModel: 'm', samples: new Map(), send: () => Promise.reject(refused) } as unknown as CheckContext;
    const request = { base: 'base_url', method: 'GET' as const, path: '/models' };
    const results = await Promise.all([1, 2].map(() => executeCheck(check(async (c) => (await sample(c, request), { verdict: 'pass' })), ctx, () => NO_TOKENS)));
    expect(results.map((r) => [r.verdict, r.skipKind])).toEqual([
      ['skip', 'budget'],
      ['skip', 'budget'],
    ]);
    expect(results[1]!.reason).toMatch(/^budget: not sent/);
  });
});
