import type { CheckContext } from '../context.ts';

/**
 * Why the model under test no longer keeps its legacy rules (it retired before the reference time),
 * or undefined while it does: a rule of a retired alias is skipped with this reason, never judged.
 */
export async function retiredReason(ctx: CheckContext): Promise<string | undefined> {
  const model = ctx.spec.models[ctx.model];
  if (model?.kind !== 'legacy_alias' || !model.retires_at) return undefined;
  const t = await ctx.referenceTime();
  return t.value.getTime() >= Date.parse(model.retires_at) ? `${ctx.model} retired at ${model.retires_at} (reference time ${t.value.toISOString()}, from ${t.source})` : undefined;
}
