import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { buildRegistry } from '../index.ts';
import { judgeBalanceTotals } from './total.ts';
import { schemaCheckOf } from '../support/handoff.ts';

const { spec } = loadSpec();
const sum = spec.meanings['balance-total-is-sum']!.sum!;

const entry = (currency: string, total: unknown, granted: unknown, toppedUp: unknown) => ({ currency, total_balance: total, granted_balance: granted, topped_up_balance: toppedUp });
const balance = (...infos: unknown[]) => ({ is_available: true, balance_infos: infos });

describe('judgeBalanceTotals', () => {
  test.each([
    ['whole and six-decimal amounts', entry('USD', '7.000000', '5.000000', '2.000000')],
    ['fractions of different lengths, exactly', entry('USD', '11.00', '10.10', '0.9')],
    ['a total written without a fraction', entry('CNY', '11', '10.10', '0.90')],
    ['trailing zeros do not matter', entry('USD', '0.3000', '0.1', '0.2')],
    ['a negative part (an overdraft)', entry('USD', '-1.5', '0', '-1.50')],
    ['all zero', entry('USD', '0', '0.00', '0')],
    ['twelve decimal places', entry('USD', '0.000000000003', '0.000000000001', '0.000000000002')],
  ])('%s adds up', (_name, info) => {
    expect(judgeBalanceTotals(balance(info), sum)).toEqual({ broken: [] });
  });

  test('0.1 + 0.2 is 0.3 in decimal, where floating point says otherwise', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(judgeBalanceTotals(balance(entry('USD', '0.3', '0.1', '0.2')), sum)).toEqual({ broken: [] });
  });

  test('a total off by one cent is named, with the sum written at the amounts\' precision', () => {
    expect(judgeBalanceTotals(balance(entry('USD', '11.01', '10.10', '0.9')), sum)).toEqual({
      broken: [{ index: 0, message: 'balance_infos[0] (USD): granted_balance "10.10" + topped_up_balance "0.9" = 11.00, but total_balance is "11.01"' }],
    });
  });

  test('a difference in the twelfth decimal place is seen', () => {
    const judged = judgeBalanceTotals(balance(entry('USD', '0.000000000002', '0.000000000001', '0.000000000002')), sum);
    expect(judged).toEqual({ broken: [{ index: 0, message: expect.stringMatching(/= 0\.000000000003, but total_balance is "0\.000000000002"/) }] });
  });

  test('each currency is judged on its own: only the broken one is named', () => {
    const judged = judgeBalanceTotals(balance(entry('CNY', '110.00', '100.00', '10.00'), entry('USD', '5.00', '5.00', '2.00'), entry('EUR', '1', '0.5', '0.5')), sum);
    expect(judged).toEqual({ broken: [{ index: 1, message: 'balance_infos[1] (USD): granted_balance "5.00" + topped_up_balance "2.00" = 7.00, but total_balance is "5.00"' }] });
  });

  test('a total that leaves out one part fails in every currency that has that part', () => {
    const judged = judgeBalanceTotals(balance(entry('CNY', '100', '100', '10'), entry('USD', '2', '0', '2')), sum);
    expect('broken' in judged && judged.broken.map((b) => b.index)).toEqual([0]);
  });

  test('a broken sum fails even when another currency cannot be judged', () => {
    const judged = judgeBalanceTotals(balance(entry('CNY', 7, 5, 2), entry('USD', '8', '5', '2')), sum);
    expect('broken' in judged && judged.broken.map((b) => b.index)).toEqual([1]);
  });

  test.each([
    ['amounts as JSON numbers', balance(entry('USD', 7, 5, 2)), /`total_balance` 7, `granted_balance` 5, `topped_up_balance` 2 are not a decimal string/],
    ['an absent amount', balance({ currency: 'USD', total_balance: '7', granted_balance: '7' }), /`topped_up_balance` absent is not a decimal string/],
    ['an amount that is not decimal', balance(entry('USD', '7', '5', '2e0')), /`topped_up_balance` "2e0" is not a decimal string/],
    ['a number with a comma', balance(entry('USD', '1,000.00', '1000', '0')), /`total_balance` "1,000.00" is not a decimal string/],
    ['an entry that is not an object', balance('USD 7'), /balance_infos\[0\] is not an object/],
    ['no balance_infos', { is_available: true }, /has no `balance_infos` array \(absent\)/],
    ['an empty balance_infos', balance(), /lists no currency/],
    ['an amount finer than twelve places', balance(entry('USD', '0.0000000000001', '0', '0.0000000000001')), /more than 12 significant decimal places/],
  ])('%s: no verdict, the premise is named', (_name, body, why) => {
    const judged = judgeBalanceTotals(body, sum);
    expect(judged).toEqual({ premise: expect.stringMatching(why) });
  });
});

describe('the balance total check', () => {
  const registry = buildRegistry(spec);

  test('is a must, from meanings.yaml, entailed from the balance table', () => {
    const check = registry.all().find((c) => c.id === 'balance.total.equals-granted-plus-topped-up');
    expect(check).toMatchObject({ severity: 'must', area: 'balance', specRefs: ['meanings.balance-total-is-sum', 'objects.balance_info'] });
    expect(check!.basis).toMatchObject({ entailed: expect.stringContaining('a total is the sum of its parts') });
  });

  test('defers a premise to a check that exists', () => {
    expect(registry.all().map((c) => c.id)).toContain(schemaCheckOf('balance'));
  });
});
