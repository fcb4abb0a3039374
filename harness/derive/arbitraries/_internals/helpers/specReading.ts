import { isUnspecified, type Condition, type Expectation, type Model, type PerModel, type Rule, type Spec, type Strength, type TypeExpr, type TypeName } from '#harness/spec/model.ts';
import { parseQuantity } from '#harness/spec/quantity.ts';

/**
 * What the arbitraries read from the spec: the chat request's fields, their bounds, and the rules
 * that tie fields together. Nothing here holds a bound or a status of its own.
 */

export type JsonObject = Record<string, unknown>;

export const REQUEST_OBJECT = 'chat_completion_request';
export const ENDPOINT = 'chat_completions';
/** The base the generated requests are for (prefix and FIM rules name other bases). */
export const BASE = 'base_url';

/** An endpoint of the spec with a request body, and the object that body is. */
export interface Operation {
  endpoint: string;
  object: string;
}

/** The chat endpoint: what the request arbitraries are for. */
export const CHAT: Operation = { endpoint: ENDPOINT, object: REQUEST_OBJECT };

/** The operation of an endpoint of the spec, read from endpoints.yaml (`request`). */
export function operationOf(spec: Spec, endpoint: string): Operation {
  const object = spec.endpoints[endpoint]?.request;
  if (!object) throw new Error(`arbitraries: the spec's endpoint \`${endpoint}\` takes no request body`);
  return { endpoint, object };
}

export function requestFields(spec: Spec, object = REQUEST_OBJECT): Record<string, TypeExpr> {
  const found = spec.objects[object];
  if (!found) throw new Error(`arbitraries: the spec has no object \`${object}\``);
  return found.fields;
}

export function modelOf(spec: Spec, id: string): Model {
  const model = spec.models[id];
  if (!model) throw new Error(`arbitraries: \`${id}\` is not a model of the spec (models: ${Object.keys(spec.models).join(', ')})`);
  return model;
}

export function ruleById(spec: Spec, id: string): Rule {
  const rule = spec.rules.find((r) => r.id === id);
  if (!rule) throw new Error(`arbitraries: the spec has no rule \`${id}\``);
  return rule;
}

/** Statuses an expectation names, or undefined when it names none (any error will do). */
export function statusesOf(expect: Expectation): number[] | undefined {
  if (expect.status !== undefined) return [expect.status];
  if (expect.status_any_of && expect.status_any_of.length > 0) return [...expect.status_any_of];
  return undefined;
}

/** A rule whose expectation is a refusal (a status, a choice of statuses, or an error). */
export function isRefusal(rule: Rule): boolean {
  const e = rule.expect;
  if (e.accepted === true) return false;
  return e.status !== undefined || (e.status_any_of?.length ?? 0) > 0 || e.error === true;
}

const WEAKNESS: Record<Strength, number> = { must: 0, should: 1, unspecified: 2 };

/** Strength only weakens going down: a must inside an unspecified field is unspecified. */
export function strengthOf(expr: TypeExpr, inherited: Strength = 'must'): Strength {
  const own = expr.strength ?? 'must';
  return WEAKNESS[own] >= WEAKNESS[inherited] ? own : inherited;
}

export function declaredTypes(expr: TypeExpr): TypeName[] | undefined {
  if (expr.type !== undefined) return Array.isArray(expr.type) ? expr.type : [expr.type];
  if (expr.ref !== undefined || expr.fields !== undefined) return ['object'];
  if (expr.items !== undefined || expr.prefix_items !== undefined) return ['array'];
  if (expr.one_of) {
    const all = expr.one_of.map(declaredTypes);
    return all.some((t) => t === undefined) ? undefined : [...new Set(all.flatMap((t) => t ?? []))];
  }
  return undefined;
}

/** The fields of an object-valued expression: inline, or those of the object it refers to. */
export function objectFields(spec: Spec, expr: TypeExpr): Record<string, TypeExpr> | undefined {
  if (expr.fields) return expr.fields;
  if (expr.ref !== undefined) {
    const object = spec.objects[expr.ref];
    if (!object) throw new Error(`arbitraries: \`ref: ${expr.ref}\` names no object of the spec`);
    return object.fields;
  }
  return undefined;
}

/** A numeric bound as the arbitraries use it: the last accepted value and the first refused one. */
export interface Bound {
  /** The bound itself: accepted under every reading of the spec. */
  accept: number;
  /** Beyond the bound under every reading ("8K" is 8000 or 8192: beyond both is 8193). */
  refuse: number;
  /** The spec entry it comes from, for messages: `2`, or `384000 (max_output_tokens of svc-v4-flash)`. */
  written: string;
  /** The model quantity it depends on, for a per-model bound. */
  perModel?: PerModel['per_model'];
}

function isPerModel(v: unknown): v is PerModel {
  return typeof v === 'object' && v !== null && 'per_model' in v;
}

/**
 * `minimum` or `maximum` of a field as a Bound, or undefined when the spec states none (for a
 * per-model bound: when the model does not state its quantity).
 */
export function boundOf(spec: Spec, expr: TypeExpr, side: 'minimum' | 'maximum', model: string): Bound | undefined {
  const b = expr[side];
  if (b === undefined) return undefined;
  const step = expr.type === 'integer' ? 1 : 0.01;
  const outward = side === 'maximum' ? 1 : -1;
  if (typeof b === 'number') return { accept: b, refuse: round(b + outward * step), written: String(b) };
  if (!isPerModel(b)) return undefined;
  const q = modelOf(spec, model)[b.per_model];
  if (q === undefined || isUnspecified(q)) return undefined;
  const range = parseQuantity(q);
  if (!range) return undefined;
  // The accepted side is the reading inside under both; the refused side lies beyond both.
  const accept = side === 'maximum' ? range.low : range.high;
  const refuse = side === 'maximum' ? range.high + step : range.low - step;
  return { accept, refuse, written: `${range.asWritten} (${b.per_model} of ${model})`, perModel: b.per_model };
}

/** Decimal steps written as decimals: 2 + 0.01 is 2.01, not 2.0100000000000002. */
function round(n: number): number {
  return Number(n.toFixed(6));
}

/**
 * Field pairs rules.yaml implies, for the chat endpoint:
 * - `companions`: a rule refusing `X` present while `Y` differs from `v` (top_logprobs without
 *   logprobs = true) means X is only sent with Y = v;
 * - `pairedWith`: a field that every rule names only together with another field's presence
 *   (tool_choice, always beside `tools` present) is only sent with that field.
 */
export interface FieldLinks {
  companions: { field: string; needs: string; value: unknown }[];
  pairedWith: { field: string; needs: string }[];
}

const topLevel = (path: string) => path.split('.')[0]!;

export function fieldLinks(spec: Spec, endpoint = ENDPOINT): FieldLinks {
  const rules = spec.rules.filter((r) => r.endpoint === endpoint);
  const companions: FieldLinks['companions'] = [];
  for (const r of rules) {
    const [first, second] = r.when;
    if (r.when.length === 2 && first?.field !== undefined && first.present === true && second?.field !== undefined && 'not_equals' in second) {
      companions.push({ field: topLevel(first.field), needs: topLevel(second.field), value: second.not_equals });
    }
  }
  const together = new Map<string, Set<string>>();
  for (const r of rules) {
    for (const set of [r.when, ...(r.also_when ?? [])]) {
      const present = new Set(set.filter((c) => c.field !== undefined && c.present === true).map((c) => topLevel(c.field!)));
      for (const c of set) {
        if (c.field === undefined) continue;
        const f = topLevel(c.field);
        const others = new Set([...present].filter((p) => p !== f));
        const before = together.get(f);
        together.set(f, before === undefined ? others : new Set([...before].filter((p) => others.has(p))));
      }
    }
  }
  const pairedWith = [...together.entries()].flatMap(([field, needs]) => [...needs].map((n) => ({ field, needs: n })));
  return { companions, pairedWith };
}

/** A condition the request body alone decides (no state, no generator hint such as `wrong_type`). */
export function isBodyCondition(c: Condition): boolean {
  const keys = Object.keys(c) as (keyof Condition)[];
  return c.field !== undefined && keys.every((k) => k === 'field' || k === 'present' || k === 'equals' || k === 'not_equals' || k === 'in');
}
