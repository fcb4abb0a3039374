import { minItemsOf, type Basis, type Behaviour, type Condition, type Spec, type SpecObject, type Strength, type TypeExpr } from './model.ts';
import { parseQuantity } from './quantity.ts';

export interface SemanticProblem {
  /** Path inside the merged spec; its first segment is a top-level key, which names the file. */
  path: (string | number)[];
  message: string;
}

/**
 * Checks what a JSON Schema cannot: that names point at things that exist, and that bounds and
 * defaults agree with each other. Run after the meta-schema check, so shapes can be trusted.
 */
export function checkSemantics(spec: Spec): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  const objectNames = new Set(Object.keys(spec.objects));
  const modelIds = new Set(Object.keys(spec.models));
  const baseKeys = new Set(Object.keys(spec.bases));
  const modes = new Set(Object.keys(spec.thinking_modes));

  for (const [name, base] of Object.entries(spec.bases)) {
    if (base.relative_to && !baseKeys.has(base.relative_to)) {
      out.push({ path: ['bases', name, 'relative_to'], message: `names base \`${base.relative_to}\`, which is not in bases` });
    }
  }

  for (const [id, model] of Object.entries(spec.models)) {
    const at = (k: string) => ['models', id, k];
    if (model.routes_to) {
      if (!modelIds.has(model.routes_to.model)) out.push({ path: [...at('routes_to'), 'model'], message: `routes to unknown model \`${model.routes_to.model}\`` });
      if (!modes.has(model.routes_to.mode)) out.push({ path: [...at('routes_to'), 'mode'], message: `names thinking mode \`${model.routes_to.mode}\`, which is not in thinking_modes` });
    }
    model.replacement?.forEach((r, i) => {
      if (!modelIds.has(r.model)) out.push({ path: [...at('replacement'), i, 'model'], message: `replacement names unknown model \`${r.model}\`` });
    });
    if (Array.isArray(model.thinking_modes)) {
      model.thinking_modes.forEach((m, i) => {
        if (!modes.has(m)) out.push({ path: [...at('thinking_modes'), i], message: `names thinking mode \`${m}\`, which is not in thinking_modes` });
      });
    }
    const max = parseQuantity(model.max_output_tokens);
    const dflt = parseQuantity(model.default_max_tokens);
    if (max && dflt && dflt.low > max.high) {
      out.push({ path: at('default_max_tokens'), message: `default ${dflt.asWritten} exceeds the maximum ${max.asWritten}` });
    }
  }

  for (const [name, object] of Object.entries(spec.objects)) {
    for (const [field, expr] of Object.entries(object.fields)) {
      checkTypeExpr(expr, ['objects', name, 'fields', field], spec, objectNames, out);
    }
    object.implies?.forEach((imp, i) => checkImplication(spec, name, object, i, out));
  }
  spec.streaming.rules.forEach((rule, i) => {
    const field = rule.some_chunk?.non_empty;
    const chunk = spec.endpoints.chat_completions?.stream?.chunk;
    const fields = chunk === undefined ? undefined : spec.objects[chunk]?.fields;
    if (field !== undefined && fields?.[field]?.type !== 'array') out.push({ path: ['streaming', 'rules', i, 'some_chunk', 'non_empty'], message: `names \`${field}\`, which is not an array field of the stream chunk object (${chunk ?? 'none'})` });
  });

  for (const [name, ep] of Object.entries(spec.endpoints)) {
    ep.bases.forEach((b, i) => {
      if (!baseKeys.has(b)) out.push({ path: ['endpoints', name, 'bases', i], message: `names base \`${b}\`, which is not in bases` });
    });
    if (ep.request !== null && !objectNames.has(ep.request)) out.push({ path: ['endpoints', name, 'request'], message: `names object \`${ep.request}\`, which is not in objects` });
    for (const [status, obj] of Object.entries(ep.responses)) {
      if (!objectNames.has(obj)) out.push({ path: ['endpoints', name, 'responses', status], message: `names object \`${obj}\`, which is not in objects` });
    }
    if (ep.stream && !objectNames.has(ep.stream.chunk)) out.push({ path: ['endpoints', name, 'stream', 'chunk'], message: `names object \`${ep.stream.chunk}\`, which is not in objects` });
  }

  const ruleIds = new Map<string, number>();
  spec.rules.forEach((rule, i) => {
    const first = ruleIds.get(rule.id);
    if (first !== undefined) out.push({ path: ['rules', i, 'id'], message: `rule id \`${rule.id}\` is already used by rules[${first}]; ids are unique and never reused` });
    else ruleIds.set(rule.id, i);
    const ep = spec.endpoints[rule.endpoint];
    if (!ep) {
      out.push({ path: ['rules', i, 'endpoint'], message: `names endpoint \`${rule.endpoint}\`, which is not in endpoints` });
      return;
    }
    const request = ep.request === null ? undefined : spec.objects[ep.request];
    const sets = [rule.when, ...(rule.also_when ?? [])];
    sets.forEach((conds, s) => {
      conds.forEach((cond, c) => {
        const base = s === 0 ? ['rules', i, 'when', c] : ['rules', i, 'also_when', s - 1, c];
        checkCondition(cond, base, spec, request, ep.request, out);
      });
    });
  });

  spec.lifecycle.transitions.forEach((t, i) => {
    const from = spec.lifecycle.states.find((s) => s.id === t.from);
    if (!from) out.push({ path: ['lifecycle', 'transitions', i, 'from'], message: `names state \`${t.from}\`, which is not in lifecycle.states` });
    if (!spec.lifecycle.states.some((s) => s.id === t.to)) out.push({ path: ['lifecycle', 'transitions', i, 'to'], message: `names state \`${t.to}\`, which is not in lifecycle.states` });
    const model = from ? spec.models[from.model] : undefined;
    if (model?.retires_at !== undefined && model.retires_at !== t.at) {
      out.push({ path: ['lifecycle', 'transitions', i, 'at'], message: `instant ${t.at} disagrees with models.${from?.model}.retires_at (${model.retires_at})` });
    }
  });
  spec.lifecycle.states.forEach((s, i) => {
    const at = ['lifecycle', 'states', i];
    const model = spec.models[s.model];
    if (!model) {
      out.push({ path: [...at, 'model'], message: `names unknown model \`${s.model}\`` });
      return;
    }
    if (s.routes_to) {
      const r = model.routes_to;
      if (!r || r.model !== s.routes_to.model || r.mode !== s.routes_to.mode) {
        out.push({ path: [...at, 'routes_to'], message: `routing ${s.routes_to.model}/${s.routes_to.mode} disagrees with models.${s.model}.routes_to (${r ? `${r.model}/${r.mode}` : 'none'})` });
      }
    }
  });
  for (const [id, list] of Object.entries(spec.lifecycle.replacement)) {
    if (id === 'source' || !Array.isArray(list)) continue;
    const model = spec.models[id];
    if (!model) {
      out.push({ path: ['lifecycle', 'replacement', id], message: `names unknown model \`${id}\`` });
      continue;
    }
    list.forEach((r, i) => {
      if (!modelIds.has(r.model)) out.push({ path: ['lifecycle', 'replacement', id, i, 'model'], message: `names unknown model \`${r.model}\`` });
    });
    if (JSON.stringify(list) !== JSON.stringify(model.replacement ?? [])) {
      out.push({ path: ['lifecycle', 'replacement', id], message: `disagrees with models.${id}.replacement; the two must say the same` });
    }
  }
  spec.pricing.entries.forEach((p, i) => {
    if (!modelIds.has(p.model)) out.push({ path: ['pricing', 'entries', i, 'model'], message: `names unknown model \`${p.model}\`` });
  });
  for (const [id, meaning] of Object.entries(spec.meanings)) {
    const sum = meaning.sum;
    if (!sum) continue;
    const fields = spec.objects[sum.object]?.fields;
    if (!fields) out.push({ path: ['meanings', id, 'sum', 'object'], message: `names object \`${sum.object}\`, which is not in objects` });
    else [sum.total, ...sum.parts].forEach((f, i) => {
      if (!(f in fields)) out.push({ path: ['meanings', id, 'sum', i === 0 ? 'total' : 'parts', ...(i === 0 ? [] : [i - 1])], message: `names field \`${f}\`, which objects.${sum.object} does not have` });
    });
  }
  for (const [id, ep] of Object.entries(spec.endpoints)) {
    for (const base of ep.bases) {
      const feature = ep.features[base];
      if (feature === undefined) out.push({ path: ['endpoints', id, 'features'], message: `names no feature for base \`${base}\`, which the endpoint is served under` });
      else if (spec.bases[base] && !spec.bases[base]!.features.includes(feature)) out.push({ path: ['endpoints', id, 'features', base], message: `\`${feature}\` is not a feature of base \`${base}\` (bases.yaml)` });
    }
  }
  const requestFields = spec.objects.chat_completion_request?.fields ?? {};
  const messageFields = spec.objects.message?.fields ?? {};
  for (const [name, feature] of Object.entries(spec.features)) {
    feature.request_fields?.forEach((f, i) => {
      if (!(f in requestFields)) out.push({ path: ['features', name, 'request_fields', i], message: `names field \`${f}\`, which objects.chat_completion_request does not have` });
    });
    feature.message_fields?.forEach((f, i) => {
      if (!(f in messageFields)) out.push({ path: ['features', name, 'message_fields', i], message: `names field \`${f}\`, which objects.message does not have` });
    });
    feature.spec_entries?.forEach((e, i) => {
      if (!specEntryExists(spec, e)) out.push({ path: ['features', name, 'spec_entries', i], message: `names \`${e}\`, which is no entry of the spec (a top-level entry, or a part of one: rules.<id prefix>, objects.<name>, ...)` });
    });
  }
  const behaviours: [string[], Behaviour][] = [
    ...Object.entries(spec.conversation).map(([id, b]): [string[], Behaviour] => [['conversation', id], b]),
    ...Object.entries(spec.messages_format).map(([id, b]): [string[], Behaviour] => [['messages_format', id], b]),
    [['streaming', 'fim_stream'], spec.streaming.fim_stream],
  ];
  for (const [path, b] of behaviours) {
    b.models?.ids?.forEach((id, i) => {
      if (!modelIds.has(id)) out.push({ path: [...path, 'models', 'ids', i], message: `names unknown model \`${id}\`` });
    });
    if (b.until !== undefined) {
      const bound = (b.models?.ids ?? []).filter((id) => spec.models[id]?.[b.until!] === undefined);
      if (!b.models?.ids || bound.length > 0) out.push({ path: [...path, 'until'], message: `\`${b.until}\` needs models.ids naming models that have it${bound.length > 0 ? ` (${bound.join(', ')} do not)` : ''}` });
    }
  }
  checkBases(spec, [], out);
  return out;
}

/** Which bases go with which strength: a must rests on what is stated or entailed, and so on. */
const BASES_OF: Record<Strength, readonly string[]> = { must: ['stated', 'entailed'], should: ['advised'], unspecified: ['unspecified'] };

export const basisKind = (b: Basis): string => (typeof b === 'string' ? b : 'entailed');

/** Every entry that carries a strength says why (its basis), and the two agree. */
function checkBases(node: unknown, path: (string | number)[], out: SemanticProblem[]): void {
  if (Array.isArray(node)) return node.forEach((n, i) => checkBases(n, [...path, i], out));
  if (typeof node !== 'object' || node === null) return;
  const entry = node as Record<string, unknown>;
  const strength = entry.strength as Strength | undefined;
  if (typeof strength === 'string' && strength in BASES_OF) {
    if (entry.basis === undefined) out.push({ path: [...path, 'strength'], message: `has strength \`${strength}\` but no \`basis\` (${BASES_OF[strength]!.join(' or ')}): say why` });
    else if (!BASES_OF[strength]!.includes(basisKind(entry.basis as Basis))) {
      out.push({ path: [...path, 'basis'], message: `basis \`${basisKind(entry.basis as Basis)}\` does not go with strength \`${strength}\` (a ${strength} rests on ${BASES_OF[strength]!.join(' or ')})` });
    }
  } else if (entry.basis !== undefined && path.length > 0) {
    out.push({ path: [...path, 'basis'], message: 'has a `basis` but no `strength`' });
  }
  for (const [k, v] of Object.entries(entry)) if (k !== 'shape' && k !== 'request' && k !== 'sample') checkBases(v, [...path, k], out);
}

function checkTypeExpr(expr: TypeExpr, path: (string | number)[], spec: Spec, objects: Set<string>, out: SemanticProblem[]): void {
  if (expr.ref !== undefined && !objects.has(expr.ref)) out.push({ path: [...path, 'ref'], message: `names object \`${expr.ref}\`, which is not in objects` });
  if (typeof expr.minimum === 'number' && typeof expr.maximum === 'number' && expr.minimum > expr.maximum) {
    out.push({ path: [...path, 'minimum'], message: `minimum ${expr.minimum} exceeds maximum ${expr.maximum}` });
  }
  const maxItems = typeof expr.max_items === 'number' ? expr.max_items : undefined;
  const minItems = minItemsOf(expr);
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) {
    out.push({ path: [...path, 'min_items'], message: `min_items ${minItems} exceeds max_items ${maxItems}` });
  }
  if (typeof expr.default === 'number') {
    if (typeof expr.minimum === 'number' && expr.default < expr.minimum) out.push({ path: [...path, 'default'], message: `default ${expr.default} is below the minimum ${expr.minimum}` });
    if (typeof expr.maximum === 'number' && expr.default > expr.maximum) out.push({ path: [...path, 'default'], message: `default ${expr.default} is above the maximum ${expr.maximum}` });
  }
  if (expr.enum_ref === 'finish_reasons' && Object.keys(spec.finish_reasons.values).length === 0) {
    out.push({ path: [...path, 'enum_ref'], message: 'finish_reasons has no values' });
  }
  if (expr.items) checkTypeExpr(expr.items, [...path, 'items'], spec, objects, out);
  expr.prefix_items?.forEach((e, i) => checkTypeExpr(e, [...path, 'prefix_items', i], spec, objects, out));
  expr.one_of?.forEach((e, i) => checkTypeExpr(e, [...path, 'one_of', i], spec, objects, out));
  for (const [name, f] of Object.entries(expr.fields ?? {})) checkTypeExpr(f, [...path, 'fields', name], spec, objects, out);
}

/** An implication's fields are fields of its object; the value it tests is one the field takes; what it demands fits the field. */
function checkImplication(spec: Spec, name: string, object: SpecObject, i: number, out: SemanticProblem[]): void {
  const imp = object.implies![i]!;
  const at = ['objects', name, 'implies', i];
  const cond = resolveField(spec, object, imp.if.field.split('.'));
  if (!cond) out.push({ path: [...at, 'if', 'field'], message: `names field \`${imp.if.field}\`, which is not a field of ${name}` });
  else {
    const values = cond.enum_ref === 'finish_reasons' ? Object.keys(spec.finish_reasons.values) : cond.enum ?? (cond.const === undefined ? undefined : [cond.const]);
    if (values && !values.includes(imp.if.equals)) out.push({ path: [...at, 'if', 'equals'], message: `${JSON.stringify(imp.if.equals)} is not a value \`${imp.if.field}\` takes (${values.map((v) => JSON.stringify(v)).join(', ')})` });
  }
  const target = resolveField(spec, object, imp.then.field.split('.'));
  if (!target) out.push({ path: [...at, 'then', 'field'], message: `names field \`${imp.then.field}\`, which is not a field of ${name}` });
  else if (imp.then.min_items !== undefined && target.type !== 'array') out.push({ path: [...at, 'then', 'min_items'], message: `\`${imp.then.field}\` is not an array` });
}

function checkCondition(cond: Condition, path: (string | number)[], spec: Spec, request: SpecObject | undefined, requestName: string | null, out: SemanticProblem[]): void {
  if (cond.field !== undefined) {
    if (!request) out.push({ path: [...path, 'field'], message: `names field \`${cond.field}\`, but the endpoint takes no request body` });
    else if (!resolveField(spec, request, cond.field.split('.'))) {
      out.push({ path: [...path, 'field'], message: `names field \`${cond.field}\`, which is not a field of ${requestName}` });
    }
  }
  if (cond.any_message_has !== undefined && cond.any_message_has !== 'reasoning_content' && !spec.objects.message?.fields[cond.any_message_has]) {
    out.push({ path: [...path, 'any_message_has'], message: `names \`${cond.any_message_has}\`, which is not a field of message` });
  }
  for (const key of ['base', 'base_not'] as const) {
    const b = cond[key];
    if (b !== undefined && !spec.bases[b]) out.push({ path: [...path, key], message: `names base \`${b}\`, which is not in bases` });
  }
  if (cond.model !== undefined && !spec.models[cond.model]) out.push({ path: [...path, 'model'], message: `names unknown model \`${cond.model}\`` });
}

/** Walks a dotted field path through fields, refs and array items. */
export function resolveField(spec: Spec, object: SpecObject, segments: string[]): TypeExpr | undefined {
  let fields: Record<string, TypeExpr> | undefined = object.fields;
  let found: TypeExpr | undefined;
  for (const segment of segments) {
    found = fields?.[segment];
    if (!found) return undefined;
    fields = fieldsOf(spec, found);
  }
  return found;
}

function fieldsOf(spec: Spec, expr: TypeExpr): Record<string, TypeExpr> | undefined {
  if (expr.fields) return expr.fields;
  if (expr.ref) return spec.objects[expr.ref]?.fields;
  if (expr.items) return fieldsOf(spec, expr.items);
  for (const alt of expr.one_of ?? []) {
    const f = fieldsOf(spec, alt);
    if (f) return f;
  }
  return undefined;
}


/**
 * Whether a feature's spec entry names something in the spec: a top-level entry, a part of one by
 * its keys (`objects.fim_completion`, `billing.spending_order`), or rules by the start of their ids
 * (`rules.prefix`: every rule whose id is `prefix` or starts `prefix.`), as check spec refs name them.
 */
function specEntryExists(spec: Spec, entry: string): boolean {
  const [top, ...rest] = entry.split('.');
  if (top === undefined || !(top in spec)) return false;
  if (rest.length === 0) return true;
  if (top === 'rules') {
    const id = rest.join('.');
    return spec.rules.some((r) => r.id === id || r.id.startsWith(`${id}.`));
  }
  let at: unknown = (spec as unknown as Record<string, unknown>)[top];
  for (const key of rest) {
    if (typeof at !== 'object' || at === null || !(key in at)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}
