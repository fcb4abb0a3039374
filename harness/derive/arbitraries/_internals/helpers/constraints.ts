import type { Spec } from '#harness/spec/model.ts';
import type { FieldOptions } from '../builders/fieldValues.ts';
import { boundOf, modelOf, requestFields } from './specReading.ts';

export interface ChatRequestConstraints {
  /** The spec's model id: per-model bounds and the rules that name a model are read for it. */
  model: string;
  /** The id written into `model` (a target's own id under a model map). Default: `model`. */
  sentAs?: string;
  /**
   * Range of `max_tokens`. Default 1..64: a live run stays cheap. The per-model maximum is covered by
   * the bound checks (request.max-tokens.*), not by the request arbitraries.
   */
  maxTokens?: { min: number; max: number };
}

export const DEFAULT_MAX_TOKENS = { min: 1, max: 64 } as const;

/** The constraints with their defaults, checked up front: a bad one throws here, not mid-run. */
export function resolveConstraints(spec: Spec, constraints: ChatRequestConstraints, caller: string): FieldOptions {
  modelOf(spec, constraints.model);
  const maxTokens = constraints.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (!Number.isInteger(maxTokens.min) || !Number.isInteger(maxTokens.max) || maxTokens.min < 1 || maxTokens.min > maxTokens.max) {
    throw new Error(`${caller}: maxTokens must be integers with 1 <= min <= max (got ${maxTokens.min}..${maxTokens.max})`);
  }
  const capped = Object.values(requestFields(spec)).find((f) => typeof f.maximum === 'object');
  const cap = capped ? boundOf(spec, capped, 'maximum', constraints.model) : undefined;
  if (cap && maxTokens.max > cap.accept) throw new Error(`${caller}: maxTokens.max ${maxTokens.max} is above the maximum of ${constraints.model} (${cap.written})`);
  return { model: constraints.model, sentAs: constraints.sentAs ?? constraints.model, maxTokens };
}
