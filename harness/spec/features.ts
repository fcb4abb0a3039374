import { isRecord } from '#harness/core/isRecord.ts';
import type { Spec } from './model.ts';

/**
 * The features a run may leave out (`--without`), all from the spec: those of routes (bases.yaml:
 * chat, models, balance, ...) and those of the main operation (features.yaml: streaming, tools,
 * JSON output, thinking, caching).
 */
export function featuresOf(spec: Spec): string[] {
  return [...new Set([...Object.values(spec.bases).flatMap((b) => b.features), ...Object.keys(spec.features)])];
}

/** The left-out feature a request body asks for (a field of it, or of one of its messages, set to anything but false or null), if any. */
export function leftOutByRequest(spec: Spec, without: readonly string[], body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  return without.find((f) => {
    const feature = spec.features[f];
    return feature?.request_fields?.some((field) => asks(body[field])) === true || feature?.message_fields?.some((field) => messages.some((m) => asks(m[field]))) === true;
  });
}

const asks = (value: unknown): boolean => value !== undefined && value !== null && value !== false;

/** The left-out feature a check judges (one of its spec refs is a feature's entry), if any. */
export function leftOutByCheck(spec: Spec, without: readonly string[], specRefs: readonly string[]): string | undefined {
  return without.find((f) => spec.features[f]?.spec_entries?.some((entry) => specRefs.some((ref) => ref === entry || ref.startsWith(`${entry}.`))));
}

/** What a check skipped for a left-out feature says. */
export const outOfScope = (feature: string) => `out of scope: the run leaves out ${feature} (--without)`;
