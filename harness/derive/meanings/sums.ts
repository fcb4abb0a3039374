import { isRecord } from '#harness/core/isRecord.ts';
import type { Meaning, Spec } from '#harness/spec/model.ts';
import type { Violation } from '../validators/index.ts';

type Sum = NonNullable<Meaning['sum']>;

/** How a sum of meanings.yaml stands in one object: its terms missing (not numbers), or what they add up to. */
export type Addition = { missing: string[] } | { holds: boolean; total: number; added: number; terms: string };

/**
 * Adds up a numeric sum (`total_tokens` = `prompt_tokens` + `completion_tokens`) in one object, the
 * one arithmetic the usage checks and `validate` share. A term that is absent or not a number is
 * not judged here: the schema judges fields.
 */
export function addUp(value: unknown, sum: Sum): Addition {
  const names = [sum.total, ...sum.parts];
  const obj = isRecord(value) ? value : {};
  const missing = names.filter((n) => typeof obj[n] !== 'number');
  if (missing.length > 0) return { missing };
  const [total, ...parts] = names.map((n) => obj[n] as number) as [number, ...number[]];
  const added = parts.reduce((a, b) => a + b, 0);
  return { holds: added === total, total, added, terms: sum.parts.map((p, i) => `${p} ${parts[i]}`).join(' + ') };
}

/** The numeric sums of meanings.yaml over `object` (e.g. `usage`), with their entries. */
function sumsOver(spec: Spec, object: string): { id: string; meaning: Meaning; sum: Sum }[] {
  return Object.entries(spec.meanings).flatMap(([id, meaning]) => (meaning.sum?.object === object ? [{ id, meaning, sum: meaning.sum }] : []));
}

/** Every numeric sum over `object` that `value` breaks, as violations at `path` (at the meaning's strength). */
export function sumViolations(spec: Spec, object: string, value: unknown, path: string): Violation[] {
  return sumsOver(spec, object).flatMap(({ id, meaning, sum }) => {
    const a = addUp(value, sum);
    if ('missing' in a || a.holds) return [];
    return [{ path, message: `${a.terms} = ${a.added}, but ${sum.total} is ${a.total}`, level: meaning.strength, specRef: `meanings.${id}`, keyword: 'sum', params: { total: a.total, added: a.added } }];
  });
}
