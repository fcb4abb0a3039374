import type { Spec } from '#harness/spec/model.ts';
import { applyBreak, breakDefs } from './_internals/builders/applyBreak.ts';
import { firstOf, RULE_OF_KIND, type BreakDef, type BrokenKind } from './_internals/builders/breaks.ts';
import { fieldValues, validValue } from './_internals/builders/fieldValues.ts';
import { resolveConstraints, type ChatRequestConstraints } from './_internals/helpers/constraints.ts';
import { fieldNodes } from './_internals/helpers/fieldWalk.ts';
import { refusingRules } from './_internals/helpers/refusingRules.ts';
import { CHAT, declaredTypes, fieldLinks, requestFields, ruleById, statusesOf, type JsonObject, type Operation } from './_internals/helpers/specReading.ts';

export { operationOf, type Operation } from './_internals/helpers/specReading.ts';

/**
 * The coverage phase's classes of invalid request, for an operation of the spec (the chat endpoint
 * unless said; Schemathesis's coverage phase is the model):
 * deterministic, one request each, derived from spec/ alone. Each break of invalidChatRequest, made
 * concrete once per class: every required field missing, every field with every JSON type it does
 * not take, every value off a list (nested ones too: message role, tool type), every bound and one
 * step beyond it, every cross-field rule broken; then a null in every field that does not take one,
 * and a body that is not a JSON object.
 */

export type ClassKind = BrokenKind | 'null' | 'body';

export interface CoverageClass {
  /** Stable across runs and models: kind, field template, what distinguishes it (`type messages string`, `null model`). */
  id: string;
  kind: ClassKind;
  /** The field template broken (`messages.*.role`); `(body)` for the body itself. */
  field: string;
  /** The concrete path in the request (`messages.0.role`). */
  path: string;
  /** The rule of rules.yaml it falls under, and the statuses that rule names (undefined: any 4xx). */
  ruleId: string;
  statuses: number[] | undefined;
  /**
   * `must`: the description states or entails a refusal; `advisory`: it leaves the value's validity
   * open (a null in an optional field whose nullability it does not state: "not set" or a wrong type).
   */
  strength: 'must' | 'advisory';
  /** The break in words, with the concrete path. */
  what: string;
  /** The request body: the request object with one break, or (`body` kind) a JSON value that is not an object. */
  request: { body: unknown };
}

/** A class the spec names that this model cannot be sent alone, and why. */
export interface UnsendableClass extends Pick<CoverageClass, 'id' | 'kind' | 'field' | 'ruleId'> {
  why: string;
}

export interface CoverageClasses {
  classes: CoverageClass[];
  unsendable: UnsendableClass[];
}

const KIND_ORDER: readonly BrokenKind[] = ['required', 'type', 'enum', 'bound', 'rule'];

/**
 * Every class of invalid request the spec names for an operation, built on `base` (a valid request
 * for the model: the check's smallest one). A wrong type or a missing field falls under the rules
 * the Errors table's 400 row gives (rules.yaml names them for the chat endpoint; the table is the
 * service's, for every endpoint). Parents a nested break needs (tools for
 * `tools.*.type`) are filled with the first valid value the arbitraries draw from seed 0, so the
 * classes are the same on every run.
 */
export function coverageClasses(spec: Spec, constraints: ChatRequestConstraints, base: JsonObject, operation: Operation = CHAT): CoverageClasses {
  const opts = resolveConstraints(spec, constraints, 'coverageClasses');
  const defs = breakDefs(spec, opts, operation);
  const links = fieldLinks(spec, operation.endpoint);
  const fields = requestFields(spec, operation.object);
  const order = Object.keys(fields);
  const bases = spec.endpoints[operation.endpoint]?.bases ?? [];
  const site = { model: opts.model, base: bases.includes('base_url') ? 'base_url' : (bases[0] ?? 'base_url') };
  const supplied: Record<string, unknown> = {};
  if (operation.object === CHAT.object) for (const [name, v] of fieldValues(spec, opts)) supplied[name] = firstOf(v.arb);
  else {
    for (const [name, expr] of Object.entries(fields)) {
      const arb = validValue(spec, expr, opts);
      if (arb) supplied[name] = firstOf(arb);
    }
  }
  const classes: CoverageClass[] = [];
  const unsendable: UnsendableClass[] = [];

  const add = (def: BreakDef, label: string, patches: BreakDef['cases'][number]['patches'], strength: CoverageClass['strength'], rule: { ruleId: string; statuses: number[] | undefined }, kind: ClassKind, allowed: (ids: string[]) => boolean) => {
    const id = label === '' ? `${kind} ${def.field}` : `${kind} ${def.field} ${label}`;
    const applied = applyBreak(def, base, patches, supplied, 0, links, order);
    const named = { id, kind, field: def.field, ruleId: rule.ruleId };
    if (!applied) return void unsendable.push({ ...named, why: `no valid request here holds \`${def.field}\`` });
    const ids = refusingRules(spec, applied.request, site, operation.endpoint).map((r) => r.id);
    if (!allowed(ids)) return void unsendable.push({ ...named, why: `it cannot be broken alone for ${opts.model} (the request would also break ${ids.filter((x) => x !== rule.ruleId).join(', ') || 'nothing the spec names'})` });
    const what = kind === 'null' ? `\`${applied.broken.field}\` = null` : applied.broken.what;
    classes.push({ id, kind, field: def.field, path: applied.broken.field, ...rule, strength, what, request: { body: applied.request } });
  };

  for (const kind of KIND_ORDER) {
    for (const def of defs[kind]) {
      const rule = { ruleId: def.ruleId, statuses: def.statuses };
      const alone = kind === 'rule' ? (ids: string[]) => ids.length === 1 && ids[0] === def.ruleId : (ids: string[]) => ids.every((x) => x === def.ruleId);
      for (const c of def.cases) add(def, c.label, c.patches, 'must', rule, kind, alone);
    }
  }
  for (const n of nullClasses(spec, operation.object)) {
    // The break machinery writes the null; `type` gives it the field's wrong-type rule.
    const def = defs.type.find((d) => d.field === n.path);
    if (!def) continue;
    const required = n.required ? ruleById(spec, RULE_OF_KIND.required) : undefined;
    const wrongType = ruleById(spec, RULE_OF_KIND.type);
    const statuses = [...new Set([...(statusesOf(wrongType.expect) ?? []), ...(required ? (statusesOf(required.expect) ?? []) : [])])];
    // A null reads as absent to the rules (refusingRules): only a required field's absence may follow.
    add(def, '', [{ template: n.path, value: null }], n.strength, { ruleId: wrongType.id, statuses: statuses.length > 0 ? statuses : undefined }, 'null', (ids) => ids.every((x) => required !== undefined && x === required.id));
  }
  const wrongType = ruleById(spec, RULE_OF_KIND.type);
  classes.push({
    id: 'body (body) array',
    kind: 'body',
    field: '(body)',
    path: '',
    ruleId: wrongType.id,
    statuses: statusesOf(wrongType.expect),
    strength: 'must',
    what: 'the body is a JSON array holding a valid request, not the request object',
    request: { body: [base] },
  });
  return { classes, unsendable };
}

/**
 * Fields a null is a class for: those whose types do not include null and that are not nullable.
 * Its strength: a required field's null is refused under either reading (absent: missing; present: a
 * wrong type), so must; `nullable: false` states it, so must; elsewhere in a request the description
 * gives a type and says nothing of null, which may stand for "not set", so advisory.
 */
function nullClasses(spec: Spec, object: string): { path: string; required: boolean; strength: CoverageClass['strength'] }[] {
  return fieldNodes(spec, object)
    .filter(({ expr }) => expr.nullable !== true && !(declaredTypes(expr) ?? []).includes('null') && declaredTypes(expr) !== undefined)
    .map(({ path, expr }) => ({ path, required: expr.required === true, strength: expr.required === true || expr.nullable === false ? 'must' : 'advisory' }));
}
