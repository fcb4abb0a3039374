import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import type { CostEstimate, RunRecord } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { parseUsd } from '#harness/spec/money.ts';
import { BudgetLedger } from './budgetLedger.ts';

const { spec } = loadSpec();
const at = new Date('2026-06-01T00:00:00Z');
const ledger = (usd: string) => new BudgetLedger(usd, parseUsd(usd));
const estimate = (costUsd: string) => ({ expected: { costUsd } }) as CostEstimate;
const result = (tokens?: CheckResult['tokens'], reason?: string) => ({ model: 'svc-v4-flash', verdict: reason ? 'skip' : 'pass', ...(reason ? { reason, skipKind: 'budget' } : {}), ...(tokens ? { tokens } : {}) }) as CheckResult;

describe('BudgetLedger', () => {
  test('an estimate above the budget is refused, naming both and what to do', () => {
    expect(() => ledger('0.01').refuseAbove(estimate('0.02'), 'run')).toThrow(/^run: the estimated cost 0\.02 USD is above --budget-usd 0\.01\. Raise --budget-usd/);
    expect(() => ledger('0.01').refuseAbove(estimate('0.01'), 'run')).not.toThrow();
  });

  test('each target gets what the ones before it left', () => {
    const b = ledger('0.5');
    expect(b.remaining(at)).toEqual({ limitUsd: '0.5', pricedAt: at.toISOString() });
    b.settle([{ usage: { costUsd: '0.2' } } as RunRecord], []);
    expect(b.remaining(at).limitUsd).toBe('0.3');
    b.settle([{ usage: { costUsd: '0.4' } } as RunRecord], []);
    expect(b.remaining(at).limitUsd).toBe('0');
  });

  test('the watch stops new checks once the results report spend up to what is left', () => {
    const watch = ledger('0.000001').watch(spec, at);
    watch.seen(result());
    expect(watch.signal.aborted).toBe(false);
    // 10 output tokens of svc-v4-flash: 2.8 millionths of a dollar.
    watch.seen(result({ promptTokens: 0, completionTokens: 10, cacheHitTokens: 0 }));
    expect(watch.signal.aborted).toBe(true);
  });

  test('reached once a check was not run for the budget', () => {
    const b = ledger('1');
    b.settle([], [result()]);
    expect(b.report()).toEqual({ limitUsd: '1', reached: false });
    b.settle([], [result(undefined, b.notRun)]);
    expect(b.report()).toEqual({ limitUsd: '1', reached: true });
  });
});
