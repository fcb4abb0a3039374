import { describe, expect, it } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { Balances, type BalanceInfo } from './balances.ts';
import { parseUsd } from '#harness/spec/money.ts';

const { spec } = loadSpec();
const START = { currency: 'USD', granted: '5', toppedUp: '2.000000' };
const AMOUNT = /^-?\d+\.\d{6}$/;

function amounts(info: BalanceInfo) {
  const [b] = info.balance_infos;
  return { total: b!.total_balance, granted: b!.granted_balance, toppedUp: b!.topped_up_balance };
}

describe('Balances', () => {
  it('opens every key at the default balance, in the service\'s shape', () => {
    const balances = new Balances(spec, START);
    expect(balances.info('sk-a')).toEqual({
      is_available: true,
      balance_infos: [{ currency: 'USD', total_balance: '7.000000', granted_balance: '5.000000', topped_up_balance: '2.000000' }],
    });
  });

  it('a per-key override replaces the default for that key only', () => {
    const balances = new Balances(spec, START, { 'sk-poor': { currency: 'USD', granted: '0', toppedUp: '0' } });
    expect(balances.info('sk-poor').is_available).toBe(false);
    expect(amounts(balances.info('sk-poor')).total).toBe('0.000000');
    expect(balances.info('sk-other').is_available).toBe(true);
  });

  it('spends granted balance before topped-up balance', () => {
    const balances = new Balances(spec, START);
    balances.charge('sk-a', parseUsd('1.25'));
    expect(amounts(balances.info('sk-a'))).toEqual({ total: '5.750000', granted: '3.750000', toppedUp: '2.000000' });
  });

  it('a charge larger than the granted balance spills into the topped-up balance', () => {
    const balances = new Balances(spec, START);
    balances.charge('sk-a', parseUsd('6.5'));
    expect(amounts(balances.info('sk-a'))).toEqual({ total: '0.500000', granted: '0.000000', toppedUp: '0.500000' });
  });

  it('follows the spending order of the spec: swapped order, swapped result', () => {
    const swapped = structuredClone(spec);
    swapped.billing.spending_order = [...spec.billing.spending_order].reverse();
    const balances = new Balances(swapped, START);
    balances.charge('sk-a', parseUsd('1.25'));
    expect(amounts(balances.info('sk-a'))).toEqual({ total: '5.750000', granted: '5.000000', toppedUp: '0.750000' });
    balances.charge('sk-a', parseUsd('1'));
    expect(amounts(balances.info('sk-a'))).toEqual({ total: '4.750000', granted: '4.750000', toppedUp: '0.000000' });
  });

  it('never goes below zero: what neither bucket can pay is dropped', () => {
    const balances = new Balances(spec, START);
    balances.charge('sk-a', parseUsd('100'));
    const info = balances.info('sk-a');
    expect(amounts(info)).toEqual({ total: '0.000000', granted: '0.000000', toppedUp: '0.000000' });
    expect(info.is_available).toBe(false);
    balances.charge('sk-a', parseUsd('1'));
    expect(amounts(balances.info('sk-a')).total).toBe('0.000000');
  });

  it('keeps keys apart', () => {
    const balances = new Balances(spec, START);
    balances.charge('sk-a', parseUsd('3'));
    expect(amounts(balances.info('sk-b')).total).toBe('7.000000');
  });

  it('keeps exact pico-dollar amounts, printing them truncated, with the three strings adding up', () => {
    // Amounts finer than the six shown decimals are kept exactly and shown truncated.
    const balances = new Balances(spec, { currency: 'USD', granted: '0.0000005', toppedUp: '0.0000005' });
    const info = balances.info('sk-a');
    expect(amounts(info)).toEqual({ total: '0.000000', granted: '0.000000', toppedUp: '0.000000' });
    expect(info.is_available).toBe(true);
    balances.charge('sk-a', 14_000n); // one cache-hit token of svc-v4-flash
    expect(balances.canCover('sk-a', parseUsd('0.000001') - 14_000n)).toBe(true);
    expect(balances.canCover('sk-a', parseUsd('0.000001') - 13_999n)).toBe(false);
  });

  it('every amount is a string with six decimals', () => {
    const balances = new Balances(spec, { currency: 'USD', granted: '5', toppedUp: '0.1' });
    for (const charge of ['0', '0.001', '1.234567', '3.9', '1000']) {
      balances.charge('sk-a', parseUsd(charge));
      const [b] = balances.info('sk-a').balance_infos;
      for (const value of [b!.total_balance, b!.granted_balance, b!.topped_up_balance]) expect(value).toMatch(AMOUNT);
    }
  });

  it('canCover: a positive total of at least the amount', () => {
    const balances = new Balances(spec, START, { 'sk-zero': { currency: 'USD', granted: '0', toppedUp: '0' } });
    expect(balances.canCover('sk-a', parseUsd('7'))).toBe(true);
    expect(balances.canCover('sk-a', parseUsd('7') + 1n)).toBe(false);
    expect(balances.canCover('sk-zero', 0n)).toBe(false);
    expect(() => balances.canCover('sk-a', -1n)).toThrow(/non-negative/);
  });

  it('refuses bad input up front', () => {
    expect(() => new Balances(spec, { currency: 'EUR', granted: '1', toppedUp: '1' })).toThrow(/currency "EUR"/);
    expect(() => new Balances(spec, START, { 'sk-x': { currency: 'USD', granted: '1,00', toppedUp: '1' } })).toThrow(/not a decimal USD amount/);
    expect(() => new Balances(spec, { currency: 'USD', granted: '-1', toppedUp: '1' })).toThrow(/below zero/);
    const broken = structuredClone(spec);
    broken.billing.spending_order = ['granted'];
    expect(() => new Balances(broken, START)).toThrow(/spending_order/);
    expect(() => new Balances(spec, START).charge('sk-a', -5n)).toThrow(/non-negative/);
  });
});
