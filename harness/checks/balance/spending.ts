import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext } from '../context.ts';
import { defaultModelOnly, defineCheck, gradeOf, type Check } from '../define.ts';
import { get, isObject, readJson } from '../support/body.ts';
import { failure, outcomeOf, pass, skip } from '../support/outcome.ts';
import { inconclusive } from '../support/cooperation.ts';
import { shapeHandOff, statusHandOff } from '../support/handoff.ts';
import { chat } from '../support/requests.ts';

const amount = (v: unknown) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined);

async function balances(ctx: CheckContext) {
  const res = await ctx.send({ base: 'base_url', method: 'GET', path: '/user/balance' });
  const { body } = await readJson(res);
  const info = get(body, 'balance_infos', 0);
  return { res, body, granted: amount(get(info, 'granted_balance')), toppedUp: amount(get(info, 'topped_up_balance')), ok: res.status === 200 && isObject(info) };
}

/** Granted balance is spent before topped-up balance: one paid request may not lower topped-up while granted is left. */
export function balanceChecks(spec: Spec): Check[] {
  const [first, second] = spec.billing.spending_order;
  return [
    defineCheck({
      id: 'balance.spending.granted-first',
      title: `the ${first} balance is spent before the ${second} balance`,
      ...gradeOf(spec.billing),
      specRefs: ['billing.spending_order'],
      appliesTo: defaultModelOnly,
      chain: 3,
      async run(ctx) {
        const before = await balances(ctx);
        if (before.res.status !== 200) return statusHandOff('balance', before.res, `GET /user/balance answered ${before.res.status}: nothing to compare`);
        if (!before.ok || before.granted === undefined || before.toppedUp === undefined) return shapeHandOff(ctx, 'balance', before.res, before.body, 'the balance carries no decimal-string amounts to compare', '/balance_infos/0', { premise: 'the description does not require them' });
        if (before.granted <= 0) return skip('the granted balance is empty: the order cannot be observed', 'inconclusive');
        const res = await ctx.send(chat(ctx));
        await res.text();
        if (res.status !== 200) return inconclusive(`the paid request was answered HTTP ${res.status}: nothing was spent to observe`);
        const after = await balances(ctx);
        if (!after.ok || after.granted === undefined || after.toppedUp === undefined) return inconclusive(`the balance after the request could not be read (HTTP ${after.res.status}): nothing to compare`);
        if (after.toppedUp < before.toppedUp && after.granted > 0) {
          return outcomeOf([failure(`topped-up balance went from ${before.toppedUp} to ${after.toppedUp} while granted balance ${after.granted} was left`, after.res)]);
        }
        // Only a spend the balance shows shows its order: one too small to show is no evidence.
        return after.granted < before.granted ? pass() : inconclusive(`the request's spend does not show in the balance (granted ${before.granted} → ${after.granted}, topped-up ${before.toppedUp} → ${after.toppedUp}): the order cannot be observed`);
      },
    }),
  ];
}
