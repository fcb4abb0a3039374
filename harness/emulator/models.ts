import { isUnspecified, type Model, type Spec } from '#harness/spec/model.ts';
import { parseQuantity } from '#harness/spec/quantity.ts';
import { CHOICES, refusal } from './choices.ts';
import type { EmulatorContext } from './context.ts';
import type { Refusal } from './http/refusal.ts';

export interface Served {
  /** The id the request named. */
  requested: string;
  /** The model that answers (an alias's target). */
  served: string;
  model: Model;
  /** Thinking mode forced by the alias's routing, if any. */
  aliasMode?: string;
  legacy: boolean;
}

/** Which model answers a request naming `id` at the emulator's current time, or why none does. */
export function resolveModel(ctx: EmulatorContext, id: unknown): Served | Refusal {
  const { spec } = ctx;
  const validId = spec.rules.find((r) => r.id === 'chat.model.valid-id');
  const unknownStatus = validId?.expect.status ?? validId?.expect.status_any_of?.[0] ?? 400;
  if (typeof id !== 'string' || !(id in spec.models)) {
    if (ctx.fault('unknown-model-500')) return refusal(spec, 500, 'internal error', 'internal_error', null, 'server_error');
    return refusal(spec, unknownStatus, `\`model\`: unknown model ${JSON.stringify(id)}`, 'model_not_found', 'model');
  }
  const model = spec.models[id]!;
  if (ctx.fault('replacement-withdrawn') && id === 'svc-v4-flash') return refusal(spec, unknownStatus, `\`model\`: unknown model ${JSON.stringify(id)}`, 'model_not_found', 'model');
  if (model.kind === 'listed') return refusal(spec, CHOICES.listedOnlyStatus, `\`model\`: ${id} is listed, but not served`, 'model_not_found', 'model');
  if (model.kind === 'current') return { requested: id, served: id, model, legacy: false };

  const retiresAt = Date.parse(model.retires_at ?? '');
  let retired = ctx.now().getTime() >= retiresAt;
  if (ctx.fault('alias-never-retires')) retired = false;
  if (ctx.fault('alias-retired-early')) retired = true;
  const target = model.routes_to!;
  if (retired && !ctx.fault('retired-alias-falls-back')) {
    return refusal(spec, CHOICES.retiredAliasStatus, `\`model\`: ${id} was retired at ${model.retires_at}; use ${model.replacement?.map((r) => r.model).join(' or ')}`, 'model_retired', 'model');
  }
  return { requested: id, served: target.model, model, aliasMode: ctx.fault('reasoner-routes-non-thinking') ? 'non_think' : target.mode, legacy: true };
}

/** The `max_tokens` to use: the request's, else the model's default, else its maximum. */
export function effectiveMaxTokens(model: Model, requested: unknown): number {
  if (typeof requested === 'number') return requested;
  const dflt = parseQuantity(model.default_max_tokens);
  if (dflt) return dflt.high;
  const max = isUnspecified(model.max_output_tokens) ? undefined : parseQuantity(model.max_output_tokens);
  // "Varies by model" and not shown for V4: the emulator answers within the model's maximum, and
  // with no maximum stated, without a cap of its own.
  return max?.high ?? Number.POSITIVE_INFINITY;
}

/** Models GET /models lists at the current time: current ones and aliases not yet retired. */
export function listedModels(ctx: EmulatorContext, spec: Spec = ctx.spec): string[] {
  return Object.entries(spec.models)
    .filter(([, m]) => m.kind === 'current' || (m.kind === 'legacy_alias' && ctx.now().getTime() < Date.parse(m.retires_at ?? '')))
    .map(([id]) => id);
}
