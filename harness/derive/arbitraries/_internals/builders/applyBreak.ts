import { memoPer } from '#harness/core/memoPer.ts';
import type { Spec } from '#harness/spec/model.ts';
import { boundBreaks, enumBreaks, REMOVE, requiredBreaks, ruleBreaks, typeBreaks, type BreakDef, type BrokenKind, type Patch } from './breaks.ts';
import { optionsKey, type FieldOptions } from './fieldValues.ts';
import { fieldNodes } from '../helpers/fieldWalk.ts';
import { deletePath, resolvePath, setPath } from '../helpers/paths.ts';
import { CHAT, type FieldLinks, type JsonObject, type Operation } from '../helpers/specReading.ts';
import { ordered } from '../mappers/completeRequest.ts';

/** A valid request with one break written in, and what it breaks (the arbitraries' Broken). */
export interface AppliedBreak {
  request: JsonObject;
  broken: { kind: BrokenKind; field: string; ruleId: string; statuses: number[] | undefined; what: string };
}

const built = memoPer<Spec, Record<BrokenKind, BreakDef[]>>();

/**
 * Every break of the operation's request for these options, by kind. Built once per spec, options
 * and operation: the registry (the checks' specRefs), the arbitrary and the coverage classes all
 * ask for the same ones. Callers read them; none writes.
 */
export function breakDefs(spec: Spec, opts: FieldOptions, operation: Operation = CHAT): Record<BrokenKind, BreakDef[]> {
  return built(spec, `${optionsKey(opts)}\0${operation.endpoint}\0${operation.object}`, () => build(spec, opts, operation));
}

function build(spec: Spec, opts: FieldOptions, operation: Operation): Record<BrokenKind, BreakDef[]> {
  const nodes = fieldNodes(spec, operation.object);
  const exprAt = (path: string) => nodes.find((n) => n.path === path)?.expr;
  return {
    bound: boundBreaks(spec, nodes, opts),
    enum: enumBreaks(spec, nodes),
    required: requiredBreaks(spec, nodes),
    type: typeBreaks(spec, nodes),
    rule: ruleBreaks(spec, opts, exprAt, operation.endpoint),
  };
}

export const topOf = (path: string) => path.split('.')[0]!;

/**
 * Writes a break into a copy of a valid request. Outside the `rule` kind (whose patches set every
 * field the rule names), fields that lean on a broken top-level field are dropped and fields the
 * broken one leans on are supplied; a nested break gets its parent object when the request lacks it.
 */
export function applyBreak(def: BreakDef, valid: JsonObject, patches: readonly Patch[], supplied: Record<string, unknown>, pick: number, links: FieldLinks, order: readonly string[]): AppliedBreak | undefined {
  const request = structuredClone(valid);
  const patched = new Set(patches.map((p) => topOf(p.template)));
  if (def.kind !== 'rule') {
    for (const p of patches) {
      if (p.template !== topOf(p.template)) continue;
      for (const l of [...links.pairedWith, ...links.companions]) if (l.needs === p.template) delete request[l.field];
      for (const l of links.companions) if (l.field === p.template) request[l.needs] = structuredClone(l.value);
    }
  }
  for (const t of patched) {
    for (const l of links.pairedWith) if (l.field === t && !patched.has(l.needs) && request[l.needs] === undefined) request[l.needs] = structuredClone(supplied[l.needs]);
    if (patches.some((p) => p.template !== t && topOf(p.template) === t) && request[t] === undefined) request[t] = structuredClone(supplied[t]);
  }
  let field = def.field;
  for (const p of patches) {
    const path = resolvePath(request, p.template, pick);
    if (path === undefined) return undefined;
    if (p.template === def.field) field = path;
    const done = p.value === REMOVE ? deletePath(request, path) : setPath(request, path, structuredClone(p.value));
    if (!done) return undefined;
  }
  const body: JsonObject = ordered(request, order);
  return { request: body, broken: { kind: def.kind, field, ruleId: def.ruleId, statuses: def.statuses, what: def.describe(field, patches) } };
}
