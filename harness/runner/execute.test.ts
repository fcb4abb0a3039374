import { describe, expect, test } from 'vitest';
import type { Check, CheckContext } from '#harness/checks/index.ts';
import { sample } from '#harness/checks/support/samples.ts';
import { failure } from '#harness/checks/support/outcome.ts';
import type { CheckResponse } from '#harness/checks/context.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { CheckTracker } from './checkTracker.ts';
import { executeCheck, JUDGED_NOTHING, UNTRACKED } from './execute.ts';
import { BudgetReachedError } from './spend/BudgetReachedError.ts';

const check = (run: Check['run']): Check => ({ id: 'schema.x.y', title: 't', area: 'schema', severity: 'must', basis: 'stated', specRefs: [], appliesTo: () => true, run });

describe('executeCheck', () => {
  test('a shared answer the budget refused: every check reading it is skipped for budget, none ends in error', async () => {
    // The first check to ask was refused by the budget; the store hands the others the same refusal.
    const refused = new BudgetReachedError('0.01', '0.01');
    const ctx = { model: 'm', targetModel: 'm', samples: new Map(), send: () => Promise.reject(refused) } as unknown as CheckContext;
    const request = { base: 'base_url', method: 'GET' as const, path: '/models' };
    const results = await Promise.all([1, 2].map(() => executeCheck(check(async (c) => (await sample(c, request), { verdict: 'pass' })), ctx, UNTRACKED)));
    expect(results.map((r) => [r.verdict, r.skipKind])).toEqual([
      ['skip', 'budget'],
      ['skip', 'budget'],
    ]);
    expect(results[1]!.reason).toMatch(/^budget: not sent/);
  });
});

describe('a pass rests on what the check read', () => {
  test('a check that passes having read no answer of the endpoint is inconclusive, whatever it claims', async () => {
    const ctx = { model: 'm', targetModel: 'm', samples: new Map() } as unknown as CheckContext;
    const result = await executeCheck(check(async () => ({ verdict: 'pass' })), ctx, UNTRACKED);
    expect([result.verdict, result.skipKind, result.reason]).toEqual(['skip', 'inconclusive', JUDGED_NOTHING]);
    expect(result.judged).toBeUndefined();
  });

  test('a pass over answers says how many it judged', async () => {
    const ctx = { model: 'm', targetModel: 'm', samples: new Map() } as unknown as CheckContext;
    const answer = { request: { method: 'GET', url: 'http://h/models', headers: {} }, response: { status: 200, headers: {}, durationMs: 1 }, attempts: 1 };
    const refused = { request: { method: 'GET', url: 'http://h/models', headers: {} }, error: { code: 'HARNESS_RESET', message: 'reset' }, attempts: 1 };
    const result = await executeCheck(check(async () => ({ verdict: 'pass' })), ctx, { settle: () => UNTRACKED.settle(), judged: () => [answer] });
    expect([result.verdict, result.judged]).toEqual(['pass', { exchanges: 1 }]);
    // A reset is no answer: the tracker counts only exchanges a response came back for.
    const tracker = new CheckTracker();
    tracker.saw(refused);
    tracker.saw(answer);
    tracker.saw(answer);
    expect(tracker.judged()).toEqual([answer]);
  });
});

describe('a refusal to answer now is not a verdict on the rule', () => {
  const { spec } = loadSpec();
  const ctx = { spec, model: 'm', targetModel: 'm', samples: new Map() } as unknown as CheckContext;
  const answered = (status: number, headers: Record<string, string> = {}) =>
    ({ status, headers, exchange: { request: { method: 'POST', url: 'http://h/v1/chat/completions', headers: {} }, response: { status, headers, durationMs: 1 }, attempts: 5 } }) as unknown as CheckResponse;

  test.each(spec.errors.retry.statuses)('a check whose only failure is an HTTP %i on every try is inconclusive, naming the status and the tries', async (status) => {
    const result = await executeCheck(check(async () => ({ verdict: 'fail', failures: [failure(`answered HTTP ${status}`, answered(status, { 'retry-after': '1' }))] })), ctx, UNTRACKED);
    expect([result.verdict, result.skipKind]).toEqual(['skip', 'inconclusive']);
    expect(result.reason).toBe(`inconclusive: POST /v1/chat/completions was answered HTTP ${status} ("not now") on each of its 5 attempts (Retry-After: 1), so the rule was never put to it`);
  });

  test('beside a failure the endpoint did answer, the "not now" is dropped and the check fails on the other', async () => {
    const result = await executeCheck(check(async () => ({ verdict: 'fail', failures: [failure('answered HTTP 429', answered(429)), failure('answered HTTP 500', answered(500))] })), ctx, UNTRACKED);
    expect(result.verdict).toBe('fail');
    expect(result.failures!.map((f) => f.message)).toEqual(['answered HTTP 500']);
  });
});
