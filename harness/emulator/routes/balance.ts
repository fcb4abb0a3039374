import { formatUsd, parseUsd, PICO_PER_USD } from '#harness/spec/money.ts';
import { jsonResponse } from '../http/respond.ts';
import { BALANCE_DECIMALS, type BalanceInfo } from '../state/balances.ts';
import type { RouteInput } from './request.ts';

/** Under `balance-total-not-sum`, each total is one unit more than its parts add up to. */
function totalsOff(info: BalanceInfo): BalanceInfo {
  return { ...info, balance_infos: info.balance_infos.map((b) => ({ ...b, total_balance: formatUsd(parseUsd(b.total_balance) + PICO_PER_USD, BALANCE_DECIMALS) })) };
}

/** GET /user/balance: the caller's balance, granted and topped-up, as decimal strings. */
export function userBalance({ ctx, key }: RouteInput): Response {
  const info = ctx.fault('balance-total-not-sum') ? totalsOff(ctx.balances.info(key)) : ctx.balances.info(key);
  if (!ctx.fault('balance-amount-as-number')) return jsonResponse(info);
  return jsonResponse({
    ...info,
    balance_infos: info.balance_infos.map((b) => ({ ...b, total_balance: Number(b.total_balance), granted_balance: Number(b.granted_balance), topped_up_balance: Number(b.topped_up_balance) })),
  });
}
