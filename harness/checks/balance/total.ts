import { sample } from '../support/samples.ts';
import type { Meaning, Spec } from '#harness/spec/model.ts';
import { formatUsd, parseUsd, PICO_DECIMALS } from '#harness/spec/money.ts';
import type { CheckOutcome } from '../context.ts';
import { defaultModelOnly, defineCheck, gradeOf, type Check } from '../define.ts';
import { get, isObject } from '../support/body.ts';
import { shapeHandOff, statusHandOff } from '../support/handoff.ts';
import { failure, outcomeOf, shown } from '../support/outcome.ts';

type Sum = NonNullable<Meaning['sum']>;

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A broken sum in one `balance_infos` entry: where it is and what does not add up. */
export interface BrokenTotal {
  index: number;
  message: string;
}

/** Every broken sum of a balance body, or why none can be judged (the premise that does not hold). */
export type TotalsJudgement = { broken: BrokenTotal[] } | { premise: string };

const places = (text: string) => Math.min(text.split('.')[1]?.length ?? 0, PICO_DECIMALS);

/**
 * Adds up each `balance_infos` entry exactly in decimal (as bigint pico-units, never floats):
 * "10.10" + "0.9" is "11.00". An entry whose amounts are absent or not decimal strings cannot be
 * judged; a broken sum in any entry is a failure even when another entry cannot be judged.
 */
export function judgeBalanceTotals(body: unknown, sum: Sum): TotalsJudgement {
  const infos = get(body, 'balance_infos');
  if (!Array.isArray(infos)) return { premise: `the balance has no \`balance_infos\` array (${shown(infos)})` };
  if (infos.length === 0) return { premise: 'the balance lists no currency in `balance_infos`: there is no total to add up' };
  const broken: BrokenTotal[] = [];
  const unjudged: string[] = [];
  infos.forEach((info, index) => {
    const where = `balance_infos[${index}]${isObject(info) && typeof info.currency === 'string' ? ` (${info.currency})` : ''}`;
    if (!isObject(info)) return void unjudged.push(`${where} is not an object`);
    const names = [sum.total, ...sum.parts];
    const bad = names.filter((n) => typeof info[n] !== 'string' || !DECIMAL.test(info[n] as string));
    if (bad.length > 0) return void unjudged.push(`${where}: ${bad.map((n) => `\`${n}\` ${shown(info[n])}`).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not a decimal string`);
    const texts = names.map((n) => info[n] as string);
    let amounts: bigint[];
    try {
      amounts = texts.map(parseUsd);
    } catch {
      return void unjudged.push(`${where}: an amount has more than ${PICO_DECIMALS} significant decimal places, beyond what the harness adds exactly`);
    }
    const [total, ...parts] = amounts as [bigint, ...bigint[]];
    const added = parts.reduce((a, b) => a + b, 0n);
    if (added === total) return;
    const terms = sum.parts.map((p, i) => `${p} "${texts[i + 1]}"`).join(' + ');
    broken.push({ index, message: `${where}: ${terms} = ${formatUsd(added, Math.max(...texts.map(places)))}, but ${sum.total} is "${texts[0]}"` });
  });
  if (broken.length > 0 || unjudged.length === 0) return { broken };
  return { premise: unjudged.join('; ') };
}

/** Ids of the sums of meanings.yaml over a balance entry: each keeps the id its check was given. */
const SUBJECTS: Record<string, { subject: string; expectation: string }> = {
  'balance-total-is-sum': { subject: 'total', expectation: 'equals-granted-plus-topped-up' },
};

/** Balance arithmetic, from meanings.yaml: per currency, the total is the sum of its parts. */
export function balanceTotalChecks(spec: Spec): Check[] {
  return Object.entries(spec.meanings).flatMap(([id, meaning]) => {
    const sum = meaning.sum;
    const names = SUBJECTS[id];
    if (!sum || sum.object !== 'balance_info' || !names) return [];
    return [
      defineCheck({
        id: `balance.${names.subject}.${names.expectation}`,
        title: `${sum.parts.join(' + ')} = ${sum.total}, in each currency of the balance`,
        ...gradeOf(meaning),
        specRefs: [`meanings.${id}`, 'objects.balance_info'],
        appliesTo: defaultModelOnly,
        async run(ctx): Promise<CheckOutcome> {
          // The balance answer the schema check judges: one answer for both.
          const { res, body, unreadable } = await sample(ctx, { base: 'base_url', method: 'GET', path: '/user/balance' });
          if (res.status !== 200 || unreadable !== undefined) {
            return statusHandOff('balance', res, `GET /user/balance was answered HTTP ${res.status}${unreadable === undefined ? '' : ` (${unreadable})`}, so no total can be added up`);
          }
          const judged = judgeBalanceTotals(body, sum);
          if ('premise' in judged) return shapeHandOff(ctx, 'balance', res, body, judged.premise, '/balance_infos', { premise: 'the description does not require more' });
          return outcomeOf(judged.broken.map((b) => failure(b.message, res, { path: `/balance_infos/${b.index}` })));
        },
      }),
    ];
  });
}
