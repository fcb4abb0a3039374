import { memoPer } from '#harness/core/memoPer.ts';
import fc, { type Arbitrary } from 'fast-check';
import { minItemsOf, type Spec, type Strength, type TypeExpr } from '#harness/spec/model.ts';
import { boundOf, declaredTypes, ENDPOINT, objectFields, requestFields, strengthOf, type JsonObject } from '../helpers/specReading.ts';
import { boundedArray, inBounds, shortString, shortText } from './values.ts';

/**
 * Valid values for each field of the chat request, from its spec entry: bounds (both included),
 * allowed values, item limits, nested fields. A few fields hold what the spec cannot describe (a
 * model id, a conversation, function definitions); those are built here and said so.
 */

export interface FieldOptions {
  /** The spec's model id: per-model bounds are read for it. */
  model: string;
  /** The id written into `model`. */
  sentAs: string;
  /** Range of an output cap (a field whose maximum is per model: max_tokens). */
  maxTokens: { min: number; max: number };
}

/** The tools the requests offer: the spec gives the shape of a definition, the functions are ours. */
export const SAMPLE_TOOLS: readonly JsonObject[] = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'get_time', description: 'Local time in a time zone', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } } },
  // Described as users write it (German, Chinese, an emoji); its parameters are get_weather's, so no schema more to compile.
  { type: 'function', function: { name: 'find_place', description: 'Sucht einen Ort — 查找地点 📍', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
];

/** Roles a generated conversation uses: it must stay valid on its own (no tool turn without a call). */
const CONVERSATION_ROLES = ['system', 'user'] as const;

/**
 * A conversation the service must answer: system and user turns with short content, ending with a
 * user turn (a last assistant turn is a prefix request, which has rules of its own).
 */
export function conversation(spec: Spec): Arbitrary<JsonObject[]> {
  const roles = spec.objects.message?.fields.role?.enum ?? [];
  for (const r of CONVERSATION_ROLES) if (!roles.includes(r)) throw new Error(`arbitraries: message roles (${roles.join(', ')}) lack \`${r}\``);
  const turn = (role: string) => fc.record({ role: fc.constant(role), content: shortText() });
  return fc.tuple(fc.array(fc.oneof(...CONVERSATION_ROLES.map(turn)), { maxLength: 3 }), turn('user')).map(([lead, last]) => [...lead, last]);
}

/** A value of a stream-selecting field that does not select streaming (its default), if any. */
function nonStreaming(spec: Spec, name: string, expr: TypeExpr): Arbitrary<unknown> | null | undefined {
  const selector = spec.endpoints[ENDPOINT]?.stream?.selected_by;
  if (selector?.field !== name) return undefined;
  // The property judges one chat_completion body; streamed answers are the stream checks' business.
  return expr.default !== undefined && expr.default !== selector.equals ? fc.constant(expr.default) : null;
}

/**
 * A valid value of a type expression, or undefined when none is known: a field left unspecified
 * (its values are not shown), or a number without both bounds and without a default (a value the
 * description does not give could be refused without breaking it).
 */
export function validValue(spec: Spec, expr: TypeExpr, opts: FieldOptions, inherited: Strength = 'must'): Arbitrary<unknown> | undefined {
  const strength = strengthOf(expr, inherited);
  if (strength === 'unspecified') return undefined;
  if (expr.const !== undefined) return fc.constant(expr.const);
  if (expr.enum) return fc.constantFrom(...expr.enum);
  if (expr.one_of) {
    const alts = expr.one_of.map((a) => validValue(spec, a, opts, strength)).filter((a): a is Arbitrary<unknown> => a !== undefined);
    return alts.length > 0 ? fc.oneof(...alts) : undefined;
  }
  const type = declaredTypes(expr)?.find((t) => t !== 'null');
  switch (type) {
    case 'integer':
    case 'number': {
      const min = boundOf(spec, expr, 'minimum', opts.model);
      const max = boundOf(spec, expr, 'maximum', opts.model);
      if (max?.perModel !== undefined || (typeof expr.maximum === 'object' && max === undefined)) {
        // An output cap: kept small so a live run stays cheap. Its per-model maximum is covered by
        // the bound checks (request.max-tokens.*), not here.
        return inBounds(Math.max(opts.maxTokens.min, min?.accept ?? opts.maxTokens.min), Math.min(opts.maxTokens.max, max?.accept ?? opts.maxTokens.max), true);
      }
      if (min && max) return inBounds(min.accept, max.accept, type === 'integer');
      return typeof expr.default === 'number' ? fc.constant(expr.default) : undefined;
    }
    case 'boolean':
      return fc.boolean();
    case 'string':
      return shortString();
    case 'array': {
      const item = expr.items ? validValue(spec, expr.items, opts, strength) : undefined;
      if (!item) return undefined;
      return boundedArray(item, minItemsOf(expr) ?? 0, typeof expr.max_items === 'number' ? expr.max_items : undefined);
    }
    case 'object': {
      const fields = objectFields(spec, expr);
      return fields ? objectValue(spec, fields, opts, strength) : undefined;
    }
    default:
      return undefined;
  }
}

/** An object with its required fields always and its optional fields sometimes. */
function objectValue(spec: Spec, fields: Record<string, TypeExpr>, opts: FieldOptions, strength: Strength): Arbitrary<JsonObject> {
  const parts: Record<string, Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(fields)) {
    const arb = validValue(spec, f, opts, strength);
    if (!arb) continue;
    parts[name] = arb;
    if (f.required === true) required.push(name);
  }
  return fc.record(parts, { requiredKeys: required });
}

/**
 * Valid values of each top-level field of the chat request, in the spec's order. Fields without
 * one (see validValue) are absent and never generated. `tool_choice` is not here: it only goes with
 * `tools` and names one of them, so toolsWithChoice builds the two together.
 */
export function fieldValues(spec: Spec, opts: FieldOptions): ReadonlyMap<string, FieldValue> {
  return made(spec, optionsKey(opts), () => build(spec, opts));
}

/** The options as one key: what is made for a spec and options is made once (memoPer), and the build writes facts under it (breakFeasibility.ts). */
export const optionsKey = (opts: FieldOptions): string => JSON.stringify([opts.model, opts.sentAs, opts.maxTokens.min, opts.maxTokens.max]);

type FieldValue = { arb: Arbitrary<unknown>; required: boolean };

/**
 * Made once per spec and options: the valid request, the invalid one and the coverage classes all
 * ask for them (an arbitrary holds no state between draws, so sharing one changes no value drawn).
 */
const made = memoPer<Spec, ReadonlyMap<string, FieldValue>>();

function build(spec: Spec, opts: FieldOptions): ReadonlyMap<string, FieldValue> {
  const out = new Map<string, FieldValue>();
  for (const [name, expr] of Object.entries(requestFields(spec))) {
    let arb: Arbitrary<unknown> | undefined;
    const streaming = nonStreaming(spec, name, expr);
    if (streaming !== undefined) arb = streaming ?? undefined;
    else if (name === 'model') arb = fc.constant(opts.sentAs);
    else if (expr.items?.ref === 'message') arb = conversation(spec);
    else if (expr.items?.ref === 'tool_definition') arb = fc.subarray([...SAMPLE_TOOLS], { minLength: 1 });
    else if (name === 'tool_choice') arb = undefined;
    else arb = validValue(spec, expr, opts);
    if (arb) out.set(name, { arb, required: expr.required === true });
  }
  return out;
}

/**
 * `tools` with, sometimes, a `tool_choice` from the spec's alternatives: one of its allowed strings,
 * or the object form naming one of the offered functions.
 */
export function toolsWithChoice(spec: Spec, tools: Arbitrary<unknown>): Arbitrary<{ tools: unknown; tool_choice?: unknown }> {
  const expr = requestFields(spec).tool_choice;
  const named = expr?.one_of?.find((a) => a.ref !== undefined);
  const namedType = named ? objectFields(spec, named)?.type?.const : undefined;
  const strings = expr?.one_of?.flatMap((a) => a.enum ?? []) ?? [];
  const choices: Arbitrary<unknown>[] = [];
  if (strings.length > 0) choices.push(fc.constantFrom(...strings));
  if (named && namedType !== undefined) choices.push(fc.nat({ max: 15 }).map((i) => ({ pick: i })));
  const choice = choices.length > 0 ? fc.option(fc.oneof(...choices), { nil: undefined }) : fc.constant(undefined);
  return fc.tuple(tools, choice).map(([t, c]) => {
    if (c === undefined) return { tools: t };
    if (typeof c === 'object' && c !== null && 'pick' in c) {
      const list = Array.isArray(t) ? (t as JsonObject[]) : [];
      const fn = list[(c as { pick: number }).pick % Math.max(list.length, 1)]?.function as JsonObject | undefined;
      return { tools: t, tool_choice: { type: namedType, function: { name: fn?.name } } };
    }
    return { tools: t, tool_choice: c };
  });
}
