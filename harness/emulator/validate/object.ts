import type { PerModel, Spec, SpecObject, Strength, TypeExpr, TypeName } from '#harness/spec/model.ts';
import { parseQuantity } from '#harness/spec/quantity.ts';
import type { Refusal } from '../http/refusal.ts';
import { deepEqual, hasJsonType, isRecord, joinPath, jsonTypeOf, show } from './json.ts';
import type { RequestSite } from './site.ts';
import { problemRefusal, type ProblemKind } from './statuses.ts';
import { effectiveStrength, isEnforced } from './strength.ts';
import { tolerated } from './tolerance.ts';
import { parsesAsJson } from '#harness/core/parsesAsJson.ts';

/**
 * Field-level validation of a body against an object of spec/objects.yaml: required, type, nullable,
 * enum/enum_ref, const, minimum/maximum (per-model bounds resolved with the site's model),
 * min_length, pattern, min_items/max_items, one_of, and nested fields, items and refs. Fields the
 * object does not list are allowed (real clients send them). Returns the first problem, in the
 * order the spec lists the fields, as a Refusal.
 */
export function validateObject(spec: Spec, objectName: string, body: unknown, site: RequestSite): Refusal | undefined {
  const object = objectNamed(spec, objectName);
  if (!isRecord(body)) return notAnObject(spec, body);
  const problem = checkFields(object.fields, body, null, 'must', { spec, site }, objectName);
  return problem ? problemRefusal(spec, problem.kind, problem.message, problem.param) : undefined;
}

/** A body that is JSON but not a JSON object: a wrong type (of the whole body, so no param). */
export function notAnObject(spec: Spec, body: unknown): Refusal {
  return problemRefusal(spec, 'wrong_type', `the request body must be a JSON object (got ${got(body)})`, null);
}

interface Problem {
  kind: ProblemKind;
  message: string;
  /** Dotted path of the offending field. */
  param: string;
}

interface Walk {
  spec: Spec;
  site: RequestSite;
}

function objectNamed(spec: Spec, name: string): SpecObject {
  const object = spec.objects[name];
  if (!object) throw new Error(`emulator validation: the spec has no object \`${name}\``);
  return object;
}

/** The fields of an object (named, or inline when objectName is undefined) against a JSON object. */
function checkFields(fields: Record<string, TypeExpr>, value: Record<string, unknown>, path: string | null, inherited: Strength, w: Walk, objectName: string | undefined): Problem | undefined {
  for (const [name, field] of Object.entries(fields)) {
    if (!isEnforced(field.strength, inherited)) continue;
    if (tolerated(objectName, name, value)) continue;
    const fieldPath = joinPath(path, name);
    const v = value[name];
    if (v === undefined) {
      // `required: unspecified` (presence the description leaves open) is not enforced.
      if (field.required === true) return { kind: 'missing', message: `${quote(fieldPath)} is required but missing`, param: fieldPath };
      continue;
    }
    const problem = checkValue(field, v, fieldPath, effectiveStrength(field.strength, inherited), w);
    if (problem) return problem;
  }
  return undefined;
}

/** One value (a field, an item or an alternative) against its type expression. */
function checkValue(expr: TypeExpr, value: unknown, path: string, inherited: Strength, w: Walk): Problem | undefined {
  if (!isEnforced(expr.strength, inherited)) return undefined;
  const strength = effectiveStrength(expr.strength, inherited);
  if (value === null && admitsNull(expr)) return undefined;

  if (expr.one_of) {
    const problem = checkAlternatives(expr.one_of, value, path, strength, w, admitsNull(expr));
    if (problem) return problem;
  }
  const types = declaredTypes(expr);
  if (types && !types.some((t) => hasJsonType(value, t))) return wrongType(path, types, admitsNull(expr), value);

  const allowed = allowedValues(expr, w.spec);
  if (allowed && !allowed.some((a) => deepEqual(a, value))) {
    return outOfRange(path, `must be one of ${allowed.map(show).join(', ')} (got ${show(value)})`);
  }
  if (expr.const !== undefined && !deepEqual(expr.const, value)) return outOfRange(path, `must be ${show(expr.const)} (got ${show(value)})`);

  if (typeof value === 'number') {
    const min = resolveBound(expr.minimum, 'low', w);
    if (min && value < min.value) return outOfRange(path, `must be at least ${min.value}${min.context} (got ${value})`);
    const max = resolveBound(expr.maximum, 'high', w);
    if (max && value > max.value) return outOfRange(path, `must be at most ${max.value}${max.context} (got ${value})`);
  }

  if (typeof value === 'string') {
    if (expr.min_length !== undefined && value.length < expr.min_length) {
      return outOfRange(path, `must be at least ${expr.min_length} characters long (got ${value.length})`);
    }
    if (expr.pattern && isEnforced(expr.pattern.strength, strength) && !new RegExp(expr.pattern.regex, 'u').test(value)) {
      return outOfRange(path, `must match ${expr.pattern.regex} (got ${show(value)})`);
    }
    if (expr.json_string && isEnforced(expr.json_string.strength, strength) && !parsesAsJson(value)) {
      return { kind: 'wrong_type', message: `${quote(path)} must be a string holding JSON (got ${show(value)})`, param: path };
    }
  }

  if (Array.isArray(value)) {
    // A bound with a strength of its own is refused only at must, as every other constraint.
    const minItems = typeof expr.min_items === 'object' ? (isEnforced(expr.min_items.strength, strength) ? expr.min_items.count : undefined) : expr.min_items;
    if (minItems !== undefined && value.length < minItems) {
      if (value.length === 0) return { kind: 'empty', message: `${quote(path)} must be a non-empty array`, param: path };
      return outOfRange(path, `must have at least ${minItems} items (got ${value.length})`);
    }
    // An unspecified max_items ("Maximum number of tools per request: not shown") bounds nothing.
    if (typeof expr.max_items === 'number' && value.length > expr.max_items) {
      return outOfRange(path, `must have at most ${expr.max_items} items (got ${value.length})`);
    }
    const prefix = expr.prefix_items ?? [];
    for (const [i, item] of value.entries()) {
      const itemExpr = prefix[i] ?? expr.items;
      if (!itemExpr) continue;
      const problem = checkValue(itemExpr, item, joinPath(path, i), strength, w);
      if (problem) return problem;
    }
  }

  if (isRecord(value)) {
    if (expr.ref !== undefined) {
      const problem = checkFields(objectNamed(w.spec, expr.ref).fields, value, path, strength, w, expr.ref);
      if (problem) return problem;
    }
    if (expr.fields) {
      const problem = checkFields(expr.fields, value, path, strength, w, undefined);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * The value passes when one alternative accepts it. Otherwise the problem reported is that of the
 * first alternative of the value's type (`tool_choice: "sometimes"` is a string not among the
 * allowed ones), or, when no alternative has the value's type, a wrong type naming them all.
 */
function checkAlternatives(alternatives: TypeExpr[], value: unknown, path: string, strength: Strength, w: Walk, nullable: boolean): Problem | undefined {
  let first: Problem | undefined;
  for (const alt of alternatives) {
    const problem = checkValue(alt, value, path, strength, w);
    if (!problem) return undefined;
    const types = declaredTypes(alt);
    const ofType = types === undefined || types.some((t) => hasJsonType(value, t)) || (value === null && admitsNull(alt));
    if (ofType && !first) first = problem;
  }
  if (first) return first;
  const types = [...new Set(alternatives.flatMap((a) => declaredTypes(a) ?? []))];
  return wrongType(path, types, nullable, value);
}

/** The JSON types an expression admits, or undefined when it does not restrict the type. */
function declaredTypes(expr: TypeExpr): TypeName[] | undefined {
  if (expr.type !== undefined) return Array.isArray(expr.type) ? expr.type : [expr.type];
  if (expr.ref !== undefined || expr.fields !== undefined) return ['object'];
  if (expr.items !== undefined || expr.prefix_items !== undefined) return ['array'];
  return undefined;
}

/** Null passes a nullable field; `nullable: unspecified` is not a stated refusal, so null passes it too. */
function admitsNull(expr: TypeExpr): boolean {
  if (expr.nullable === true || expr.nullable === 'unspecified') return true;
  return Array.isArray(expr.type) ? expr.type.includes('null') : expr.type === 'null';
}

function allowedValues(expr: TypeExpr, spec: Spec): unknown[] | undefined {
  if (expr.enum) return expr.enum;
  switch (expr.enum_ref) {
    case undefined:
      return undefined;
    case 'finish_reasons':
      return Object.keys(spec.finish_reasons.values);
  }
}

interface Bound {
  value: number;
  /** What the message adds after the number: where a per-model bound came from. */
  context: string;
}

/**
 * A bound as a number. A per-model bound is the site's model's quantity; without a model (the caller
 * refuses unknown models) or when the model does not state the quantity, nothing is checked. For an
 * inexact quantity ("8K") the lenient reading is the limit: the high one for a maximum (8192), the
 * low one for a minimum, so no value right under one reading of the description is refused.
 */
function resolveBound(bound: number | PerModel | undefined, reading: 'low' | 'high', w: Walk): Bound | undefined {
  if (bound === undefined) return undefined;
  if (typeof bound === 'number') return { value: bound, context: '' };
  const modelId = w.site.modelId;
  const model = modelId === undefined ? undefined : w.spec.models[modelId];
  if (!model) return undefined;
  const range = parseQuantity(model[bound.per_model]);
  if (!range) return undefined;
  const value = range[reading];
  const written = range.exact ? '' : `, ${range.asWritten} read as ${value}`;
  return { value, context: ` for model ${modelId} (its ${bound.per_model}${written})` };
}

function quote(path: string): string {
  return `\`${path}\``;
}

function outOfRange(path: string, what: string): Problem {
  return { kind: 'out_of_range', message: `${quote(path)} ${what}`, param: path };
}

function wrongType(path: string, types: TypeName[], nullable: boolean, value: unknown): Problem {
  const names = types.filter((t) => t !== 'null').map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`));
  if (nullable || types.includes('null')) names.push('null');
  const list = names.length <= 2 ? names.join(' or ') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  return { kind: 'wrong_type', message: `${quote(path)} must be ${list} (got ${got(value)})`, param: path };
}

function got(value: unknown): string {
  const type = jsonTypeOf(value);
  return type === 'null' || type === 'undefined' ? type : `${type} ${show(value)}`;
}
