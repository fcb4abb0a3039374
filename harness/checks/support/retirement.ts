import type { Model } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome } from '../context.ts';
import { skip } from './outcome.ts';

/**
 * Where the reference time stands against an alias's retirement instant. Within the tolerance
 * window either state could be right (clocks differ), so the verdict is indeterminate: a skip that
 * says so, never a pass or a fail.
 */
export async function retirementState(ctx: CheckContext, model: Model): Promise<{ state: 'active' | 'retired'; at: string } | { indeterminate: string }> {
  const t = await ctx.referenceTime();
  const retires = Date.parse(model.retires_at!);
  const delta = (t.value.getTime() - retires) / 1000;
  const at = `reference time ${t.value.toISOString()} (${t.source}), retirement ${model.retires_at}`;
  if (Math.abs(delta) < ctx.options.lifecycleToleranceSeconds) return { indeterminate: `indeterminate: ${at} are within ${ctx.options.lifecycleToleranceSeconds} s of each other` };
  return { state: delta < 0 ? 'active' : 'retired', at };
}

/**
 * Why a rule of the model under test is not judged now, or undefined while its legacy rules hold:
 * it retired before the reference time (a skip, never judged), or the reference time is too near
 * its retirement to tell which state holds (inconclusive, as the lifecycle checks are).
 */
export async function legacyRulesStand(ctx: CheckContext): Promise<CheckOutcome | undefined> {
  const model = ctx.spec.models[ctx.model];
  if (model?.kind !== 'legacy_alias' || !model.retires_at) return undefined;
  const s = await retirementState(ctx, model);
  if ('indeterminate' in s) return skip(`${s.indeterminate}: whether its legacy rules still apply cannot be told`, 'inconclusive');
  return s.state === 'retired' ? skip(`${ctx.model} retired at ${model.retires_at} (${s.at}): its legacy rules no longer apply`) : undefined;
}
