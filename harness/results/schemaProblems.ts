import type { ErrorObject } from 'ajv';
import { isRecord } from '#harness/core/isRecord.ts';
import type { Layout } from './serialize.ts';

/**
 * ajv's errors (compiled with `verbose`, so each carries the value that failed) as one line per
 * problem, `<place>: <what>, found <value>`, in the order the file lays them out. A rule keyed on a
 * field (if/then/else) is said with that field's value, and not at all when the field itself is
 * wrong: it would only be noise.
 */
export function schemaProblems(errors: readonly ErrorObject[], layout: Layout): string[] {
  const rules = errors.filter((e) => e.keyword === 'if');
  const lines: { place: string; line: string }[] = [];
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    const rule = rules.find((r) => insideBranch(e, r));
    if (rule && keyedFields(rule).some((k) => errors.some((o) => o.instancePath === `${rule.instancePath}/${k}`))) continue;
    const child = childOf(e);
    const place = child === undefined ? e.instancePath : `${e.instancePath}/${child}`;
    lines.push({ place, line: `${e.instancePath || '/'}: ${what(e)}${rule ? ` (${keyedBy(rule)})` : ''}` });
  }
  const order = lines.map((l, i) => ({ ...l, rank: rankOf(l.place, layout), i }));
  order.sort((a, b) => compareRanks(a.rank, b.rank) || a.i - b.i);
  return [...new Set(order.map((l) => l.line))];
}

/** An error raised inside the then/else branch of the rule `r`, on the same value. */
function insideBranch(e: ErrorObject, r: ErrorObject): boolean {
  const branch = `${r.schemaPath.slice(0, -'if'.length)}${String((r.params as { failingKeyword: string }).failingKeyword)}/`;
  return e.schemaPath.startsWith(branch) && (e.instancePath === r.instancePath || e.instancePath.startsWith(`${r.instancePath}/`));
}

/** The values a rule was keyed on, e.g. `verdict "fail"`. */
function keyedBy(r: ErrorObject): string {
  const value = isRecord(r.data) ? r.data : {};
  return keyedFields(r).map((k) => `${k} ${typeOrValue(value[k])}`).join(', ');
}

/** The fields an `if` looks at. */
function keyedFields(r: ErrorObject): string[] {
  const properties = isRecord(r.schema) ? r.schema['properties'] : undefined;
  return isRecord(properties) ? Object.keys(properties) : [];
}

/** The key an error is about, when it names one below its value (a missing or unknown key). */
function childOf(e: ErrorObject): string | undefined {
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  return e.keyword === 'required' ? params.missingProperty : e.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
}

function what(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return `must be ${String(params['type']).split(',').map(article).join(' or ')}, found ${typeOrValue(e.data)}`;
    case 'required':
      return `missing ${String(params['missingProperty'])}`;
    case 'additionalProperties':
      return `unknown key ${String(params['additionalProperty'])}`;
    case 'enum':
      return `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, found ${typeOrValue(e.data)}`;
    case 'const':
      return `must be ${JSON.stringify(params['allowedValue'])}, found ${typeOrValue(e.data)}`;
    case 'maxItems':
      return params['limit'] === 0 ? `must be empty, found ${typeOrValue(e.data)}` : `${e.message ?? e.keyword}, found ${typeOrValue(e.data)}`;
    default:
      return `${e.message ?? e.keyword}, found ${typeOrValue(e.data)}`;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A scalar as JSON; an object or array by its kind (and length), since printing it would drown the line. */
function typeOrValue(v: unknown): string {
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (isRecord(v)) return 'an object';
  return v === undefined ? 'undefined' : JSON.stringify(v);
}

/** Where a JSON pointer falls in the file: each key's position in the layout, each item's index. */
function rankOf(pointer: string, layout: Layout): number[] {
  const rank: number[] = [];
  let at: Layout | undefined = layout;
  for (const segment of pointer.split('/').slice(1)) {
    if (at?.kind === 'array') {
      rank.push(Number(segment));
      at = at.of;
    } else if (at?.kind === 'object') {
      const i = at.keys.indexOf(segment);
      rank.push(i >= 0 ? i : at.keys.length);
      at = at.fields?.[segment];
    } else {
      rank.push(0);
      at = undefined;
    }
  }
  return rank;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
