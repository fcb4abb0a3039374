import { jsonResponse } from '../http/respond.ts';
import type { RouteInput } from './request.ts';

/** GET /user/balance: the caller's balance, granted and topped-up, as decimal strings. */
export function userBalance({ ctx, key }: RouteInput): Response {
  const info = ctx.balances.info(key);
  if (!ctx.fault('balance-amount-as-number')) return jsonResponse(info);
  return jsonResponse({
    ...info,
    balance_infos: info.balance_infos.map((b) => ({ ...b, total_balance: Number(b.total_balance), granted_balance: Number(b.granted_balance), topped_up_balance: Number(b.topped_up_balance) })),
  });
}
