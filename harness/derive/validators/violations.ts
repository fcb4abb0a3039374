import type { ErrorObject } from 'ajv';
import type { Strength } from '#harness/spec/model.ts';
import { SPEC_REF, STRENGTH } from '#harness/derive/schemas/annotations.ts';

/** How a violation is reported: the description's strength, or `strict` for unknown extra fields. */
export type Level = Strength | 'strict';

export interface Violation {
  /** JSON pointer into the judged body, `''` for the root. */
  path: string;
  message: string;
  level: Level;
  /** The spec entry the failed constraint comes from, e.g. `objects.chat_completion.fields.id.pattern`. */
  specRef: string;
  keyword: string;
  params: Record<string, unknown>;
}

/**
 * Which errors an anyOf makes noise of. An alternative whose `type` did not match the value is
 * irrelevant; when some alternative did match, its own errors say what is wrong (a 5-item `stop` is
 * "more than 4 items", not "matches no alternative"), so the anyOf line and the mismatched
 * alternatives' type errors go. When none matched, the anyOf line stays and the type errors go.
 */
function anyOfNoise(errors: readonly ErrorObject[]): Set<ErrorObject> {
  const noise = new Set<ErrorObject>();
  for (const a of errors) {
    if (a.keyword !== 'anyOf') continue;
    const branches = ((a.schema as unknown[] | undefined) ?? []).length;
    const mismatched = errors.filter((e) => e.keyword === 'type' && e.instancePath === a.instancePath && new RegExp(`^${escape(a.schemaPath)}/\\d+/type$`).test(e.schemaPath));
    for (const e of mismatched) noise.add(e);
    if (mismatched.length < branches) noise.add(a);
  }
  return noise;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Turns ajv errors into violations. The level is read from the schema node that failed: every node
 * the deriver writes carries x-strength. allOf errors repeat their inner error and are dropped; an
 * anyOf is resolved to the alternative that fits the value (anyOfNoise); additionalProperties only
 * appears in the strict profile.
 */
export function toViolations(errors: readonly ErrorObject[] | null | undefined): Violation[] {
  if (!errors || errors.length === 0) return [];
  const out: Violation[] = [];
  const seen = new Set<string>();
  const noise = anyOfNoise(errors);
  for (const e of errors) {
    if (e.keyword === 'allOf' || e.keyword === 'if' || noise.has(e)) continue;
    const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
    const level: Level = e.keyword === 'additionalProperties' ? 'strict' : ((parent[STRENGTH] as Strength | undefined) ?? 'must');
    const specRef = String(parent[SPEC_REF] ?? '');
    const message = describe(e);
    // An unknown field is reported at its own path, so a reader sees which one.
    const path = e.keyword === 'additionalProperties' ? `${e.instancePath}/${String((e.params as { additionalProperty: string }).additionalProperty)}` : e.instancePath;
    const key = `${path}|${message}|${level}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message, level, specRef, keyword: e.keyword, params: e.params as Record<string, unknown> });
  }
  return out;
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `missing required field \`${String(p.missingProperty)}\``;
    case 'additionalProperties':
      return `field \`${String(p.additionalProperty)}\` is not in the description`;
    case 'enum':
      return `must be one of ${JSON.stringify(p.allowedValues)}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'anyOf':
      return `matches none of the allowed types (${anyOfTypes(e)})`;
    case 'not':
      return 'must not be null (null is not stated for this field)';
    default:
      return e.message ?? e.keyword;
  }
}

function anyOfTypes(e: ErrorObject): string {
  const alternatives = (e.schema as { type?: unknown; $ref?: string }[] | undefined) ?? [];
  return alternatives.map((a) => (a.type !== undefined ? String(a.type) : a.$ref ? a.$ref.replace('#/$defs/', '') : 'object')).join(', ');
}

const ORDER: Level[] = ['must', 'should', 'unspecified', 'strict'];

/** The strongest level among violations, or undefined when there are none. */
export function strongestLevel(violations: readonly Violation[]): Level | undefined {
  for (const level of ORDER) if (violations.some((v) => v.level === level)) return level;
  return undefined;
}
