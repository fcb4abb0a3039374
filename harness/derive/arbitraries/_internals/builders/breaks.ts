import fc, { type Arbitrary } from 'fast-check';
import type { Rule, Spec, TypeExpr } from '#harness/spec/model.ts';
import type { FieldNode } from '../helpers/fieldWalk.ts';
import { deepEqual } from '#harness/core/deepEqual.ts';
import { boundOf, declaredTypes, ENDPOINT, isBodyCondition, isRefusal, modelOf, ruleById, statusesOf, type Bound } from '../helpers/specReading.ts';
import { validValue, type FieldOptions } from './fieldValues.ts';
import { beyond, offList, offListValues, tooLongArray, wrongTypeCandidates, wrongTypeValues } from './values.ts';

/**
 * The ways to break a valid chat request, one spec entry each, read from objects.yaml (bounds,
 * allowed values, required fields, types) and rules.yaml (cross-field rules a body can break).
 */

export type BrokenKind = 'bound' | 'enum' | 'required' | 'type' | 'rule';

/** Marks a field the break removes. */
export const REMOVE: unique symbol = Symbol('remove');

export interface Patch {
  /** Path template: `*` is any index of the array there. */
  template: string;
  value: unknown;
}

export interface BreakDef {
  kind: BrokenKind;
  /** The field broken (a template for nested fields). */
  field: string;
  /** Every path template the patches write (the field, and for a rule every field it names). */
  templates: string[];
  ruleId: string;
  statuses: number[] | undefined;
  /** What the break writes into (or removes from) a valid request. */
  patches: Arbitrary<Patch[]>;
  /**
   * The break's classes, each made concrete once (the coverage phase sends one request each): one
   * per wrong JSON type; the first value beyond a bound; one stranger off a list; the field removed.
   */
  cases: BreakCase[];
  /** The break in words, with the concrete path. */
  describe(path: string, patches: readonly Patch[]): string;
}

export interface BreakCase {
  /** What distinguishes the case within its break (`string` for a wrong type, `maximum` for a bound). */
  label: string;
  patches: Patch[];
}

/** The first value an arbitrary draws from seed 0: a deterministic stand-in for "a valid X". */
export const firstOf = <T>(arb: Arbitrary<T>): T => fc.sample(arb, { seed: 0, numRuns: 1 })[0]!;

/** The rule each kind of field problem falls under (the emulator keeps the same table on its own). */
export const RULE_OF_KIND = {
  bound: 'bound.out-of-range',
  enum: 'bound.out-of-range',
  required: 'chat.required-field.missing',
  type: 'chat.wrong-type',
} as const satisfies Record<Exclude<BrokenKind, 'rule'>, string>;

const show = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const single = (template: string, value: Arbitrary<unknown>): Arbitrary<Patch[]> => value.map((v) => [{ template, value: v }]);

function ruleFor(spec: Spec, id: string): { ruleId: string; statuses: number[] | undefined } {
  return { ruleId: id, statuses: statusesOf(ruleById(spec, id).expect) };
}

/** A value beyond each numeric bound (just and far beyond), and an array one item (or many) too long. */
export function boundBreaks(spec: Spec, nodes: readonly FieldNode[], opts: FieldOptions): BreakDef[] {
  const out: BreakDef[] = [];
  for (const { path, expr } of nodes) {
    const types = declaredTypes(expr) ?? [];
    if (types.includes('integer') || types.includes('number')) {
      const integer = !types.includes('number');
      for (const side of ['minimum', 'maximum'] as const) {
        const b = boundOf(spec, expr, side, opts.model);
        if (!b) continue;
        out.push({
          kind: 'bound',
          field: path,
          templates: [path],
          ...ruleFor(spec, perModelRule(spec, b)?.id ?? RULE_OF_KIND.bound),
          patches: single(path, beyond(b.refuse, side === 'maximum' ? 1 : -1, integer)),
          cases: [{ label: side, patches: [{ template: path, value: b.refuse }] }],
          describe: (p, [patch]) => `\`${p}\` = ${show(patch?.value)} (${side} ${b.written})`,
        });
      }
    }
    // Item limits, on the field or on one of its alternatives (`stop`: a string or up to 4 strings).
    // A too-short array is not here: the only item minimum (non-empty messages) is a rule of its own.
    for (const alt of [expr, ...(expr.one_of ?? [])]) {
      if (typeof alt.max_items !== 'number' || !alt.items) continue;
      const item = validValue(spec, alt.items, opts);
      if (!item) continue;
      const max = alt.max_items;
      out.push({
        kind: 'bound',
        field: path,
        templates: [path],
        ...ruleFor(spec, RULE_OF_KIND.bound),
        patches: single(path, tooLongArray(item, max)),
        cases: [{ label: 'max_items', patches: [{ template: path, value: Array.from({ length: max + 1 }, () => firstOf(item)) }] }],
        describe: (p, [patch]) => `\`${p}\` with ${Array.isArray(patch?.value) ? patch.value.length : '?'} items (at most ${max})`,
      });
    }
  }
  return out;
}

/** The rule about a per-model bound (max_tokens above the model's maximum), if the spec has one. */
function perModelRule(spec: Spec, b: Bound): Rule | undefined {
  if (b.perModel === undefined) return undefined;
  return spec.rules.find((r) => r.endpoint === ENDPOINT && r.when.some((c) => typeof c.above === 'object' && c.above.per_model === b.perModel));
}

/** A string off the list of allowed values (an enum, or a string const). */
export function enumBreaks(spec: Spec, nodes: readonly FieldNode[]): BreakDef[] {
  const out: BreakDef[] = [];
  for (const { path, expr } of nodes) {
    const alts = expr.one_of ?? [expr];
    // An alternative that takes any string would accept the off-list string: nothing to break.
    if (alts.some((a) => declaredTypes(a)?.includes('string') && a.enum === undefined && a.const === undefined)) continue;
    const allowed = alts.flatMap((a) => a.enum ?? (typeof a.const === 'string' ? [a.const] : []));
    if (allowed.length === 0 || !allowed.every((v) => typeof v === 'string')) continue;
    out.push({
      kind: 'enum',
      field: path,
      templates: [path],
      ...ruleFor(spec, RULE_OF_KIND.enum),
      patches: single(path, offList(allowed)),
      cases: [{ label: 'off-list', patches: [{ template: path, value: offListValues(allowed)[0] }] }],
      describe: (p, [patch]) => `\`${p}\` = ${show(patch?.value)} (allowed: ${allowed.map(show).join(', ')})`,
    });
  }
  return out;
}

/** A required field left out. */
export function requiredBreaks(spec: Spec, nodes: readonly FieldNode[]): BreakDef[] {
  return nodes
    .filter(({ expr }) => expr.required === true)
    .map(({ path }) => ({
      kind: 'required' as const,
      field: path,
      templates: [path],
      ...ruleFor(spec, RULE_OF_KIND.required),
      patches: fc.constant([{ template: path, value: REMOVE }]),
      cases: [{ label: 'missing', patches: [{ template: path, value: REMOVE }] }],
      describe: (p: string) => `\`${p}\` is missing (required)`,
    }));
}

/** A value of none of the field's types. */
export function typeBreaks(spec: Spec, nodes: readonly FieldNode[]): BreakDef[] {
  const out: BreakDef[] = [];
  for (const { path, expr } of nodes) {
    const types = declaredTypes(expr);
    if (!types || types.length === 0) continue;
    out.push({
      kind: 'type',
      field: path,
      templates: [path],
      ...ruleFor(spec, RULE_OF_KIND.type),
      patches: single(path, wrongTypeValues(types)),
      cases: wrongTypeCandidates(types).map((c) => ({ label: c.type, patches: [{ template: path, value: c.value }] })),
      describe: (p, [patch]) => `\`${p}\` = ${show(patch?.value)} (must be ${types.join(' or ')})`,
    });
  }
  return out;
}

/**
 * Cross-field rules a body alone can break: must-level refusals of the chat endpoint for this
 * model's kind whose conditions are all on fields (`top_logprobs` present, `logprobs` not true;
 * `messages` equal to []). A rule that only asks for fields to be missing is the `required` kind.
 */
export function ruleBreaks(spec: Spec, opts: FieldOptions, fieldExpr: (path: string) => TypeExpr | undefined, endpoint = ENDPOINT): BreakDef[] {
  const kind = modelOf(spec, opts.model).kind;
  const out: BreakDef[] = [];
  for (const rule of spec.rules) {
    if (rule.endpoint !== endpoint || rule.strength !== 'must' || !isRefusal(rule)) continue;
    if (rule.applies_to_models?.kind !== undefined && rule.applies_to_models.kind !== kind) continue;
    if (!rule.when.every(isBodyCondition) || rule.when.every((c) => c.present === false)) continue;
    const patches: Arbitrary<Patch>[] = [];
    for (const c of rule.when) {
      const field = c.field!;
      const valid = fieldExpr(field) ? validValue(spec, fieldExpr(field)!, opts) : undefined;
      let value: Arbitrary<unknown> | undefined;
      if ('equals' in c) value = fc.constant(structuredClone(c.equals));
      else if (c.in) value = fc.constantFrom(...c.in);
      else if (c.present === false) value = fc.constant(REMOVE);
      else if (c.present === true) value = valid;
      else if ('not_equals' in c) {
        const other = valid?.filter((v) => !deepEqual(v, c.not_equals));
        value = fieldExpr(field)?.required === true ? other : other ? fc.oneof(fc.constant(REMOVE), other) : fc.constant(REMOVE);
      }
      if (!value) break;
      patches.push(value.map((v) => ({ template: field, value: v })));
    }
    if (patches.length !== rule.when.length) continue;
    const all = fc.tuple(...patches);
    out.push({
      kind: 'rule',
      field: rule.when[0]!.field!,
      templates: rule.when.map((c) => c.field!),
      ...ruleFor(spec, rule.id),
      patches: all,
      cases: [{ label: 'broken', patches: firstOf(all) }],
      describe: (_p, ps) => `${rule.statement.replace(/\.$/, '')} (here: ${ps.map((x) => `\`${x.template}\` ${x.value === REMOVE ? 'not set' : `= ${show(x.value)}`}`).join(', ')})`,
    });
  }
  return out;
}
