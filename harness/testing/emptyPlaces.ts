// Test support: every place the spec needs filled in an answer, read from the derived schemas and the
// spec's stream rules (not a hand list), for the emptiness walk (harness/cli/emptinessWalk.test.ts).
import { deriveObjectSchema, SPEC_REF, STRENGTH, type JsonSchema } from '#harness/derive/schemas/index.ts';
import type { Spec } from '#harness/spec/model.ts';

/** How a place is taken away: the field deleted, set to null, or its array left with no item. */
export type Mutation = 'removed' | 'nulled' | 'emptied';

/** A step of a place's path: a field, `*` (every item of an array) or one item's index. */
export type Step = string | number;

/** One place of one answer object, and how it is taken away. */
export interface Place {
  /** The spec object of the answer (a stream's chunks: the chunk object, every chunk taken away alike). */
  object: string;
  path: readonly Step[];
  mutation: Mutation;
  /** Also set, so the place is needed: an implication's condition (`finish_reason: "tool_calls"`). */
  given?: { path: readonly Step[]; value: unknown };
  /** The spec entry that needs the place (the schema node's `x-spec`, or a stream rule): the checks covering it judge the walk. */
  entry: string;
}

/** How a place reads in a report: `chat_completion /choices emptied`, and what `given` sets. */
export function placeName(p: Place): string {
  const at = (path: readonly Step[]) => `/${path.join('/')}`;
  return `${p.object} ${at(p.path)} ${p.mutation}${p.given ? ` (given ${at(p.given.path)} = ${JSON.stringify(p.given.value)})` : ''}`;
}

/**
 * The answer objects the spec describes: each endpoint's success object, the chunk of each stream,
 * and the error envelope.
 */
export function answerObjects(spec: Spec): string[] {
  const objects = new Set<string>();
  for (const ep of Object.values(spec.endpoints)) {
    for (const o of Object.values(ep.responses)) objects.add(o);
    if (ep.stream) objects.add(ep.stream.chunk);
  }
  objects.add(spec.errors.envelope.object);
  return [...objects];
}

/** Every place of every answer object, in a stable order. */
export function emptyPlaces(spec: Spec): Place[] {
  return answerObjects(spec).flatMap((o) => [...schemaPlaces(spec, o), ...streamPlaces(spec, o)]);
}

type Node = Record<string, unknown>;

/**
 * The places an object's derived schema needs at must: each required field (removed; nulled where
 * null is not allowed), each array with a least number of items (emptied), and each implication's
 * `then` (emptied or removed, its `if` made to hold). Only required fields are entered: a field
 * required inside an optional one (a tool call's `function`) is needed only where that one is sent.
 * Strength only weakens going down, so a node below must is not entered either.
 */
export function schemaPlaces(spec: Spec, object: string): Place[] {
  const schema = deriveObjectSchema(spec, object, { profile: 'default' });
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const resolve = (n: Node): Node => (typeof n.$ref === 'string' ? (defs[n.$ref.replace('#/$defs/', '')] as Node) : n);
  const places: Place[] = [];
  const walk = (raw: Node, path: Step[], inherited: string, seen: ReadonlySet<Node>): void => {
    const node = resolve(raw);
    if (seen.has(node)) return;
    const inside = new Set([...seen, node]);
    const level = (n: Node, fallback: string) => (typeof n[STRENGTH] === 'string' ? (n[STRENGTH] as string) : fallback);
    const strength = level(node, level(raw, inherited));
    if (strength !== 'must') return;
    const entry = String(raw[SPEC_REF] ?? node[SPEC_REF] ?? `objects.${object}`);
    const properties = (node.properties ?? {}) as Record<string, Node>;
    for (const name of (node.required ?? []) as string[]) {
      const field = properties[name] ?? {};
      const at = String(field[SPEC_REF] ?? entry);
      places.push({ object, path: [...path, name], mutation: 'removed', entry: at });
      if (!admitsNull(field, resolve)) places.push({ object, path: [...path, name], mutation: 'nulled', entry: at });
    }
    for (const layer of [node, ...((node.allOf ?? []) as Node[])]) {
      if (typeof layer.minItems === 'number' && layer.minItems > 0 && level(layer, strength) === 'must') places.push({ object, path, mutation: 'emptied', entry: String(layer[SPEC_REF] ?? entry) });
      if (layer.if !== undefined && level(layer, strength) === 'must') places.push(...implied(object, path, layer));
    }
    for (const name of (node.required ?? []) as string[]) if (properties[name]) walk(properties[name]!, [...path, name], strength, inside);
    if (node.items !== undefined) walk(node.items as Node, [...path, '*'], strength, inside);
    ((node.prefixItems ?? []) as Node[]).forEach((item, i) => walk(item, [...path, i], strength, inside));
    for (const alt of (node.anyOf ?? []) as Node[]) if (alt.type !== 'null') walk(alt, path, strength, inside);
  };
  walk(schema, [], 'must', new Set());
  return places;
}

/** The places an implication layer needs: its `then` leaf emptied or removed, with its `if` made to hold. */
function implied(object: string, path: readonly Step[], layer: Node): Place[] {
  const entry = String(layer[SPEC_REF]);
  const cond = leafOf(layer.if as Node);
  const then = leafOf(layer.then as Node);
  if (!cond || !then || !('const' in cond.leaf)) return [];
  const given = { path: [...path, ...cond.path], value: cond.leaf.const };
  const at = [...path, ...then.path];
  return [
    ...(typeof then.leaf.minItems === 'number' ? [{ object, path: at, mutation: 'emptied' as const, given, entry }] : []),
    ...(then.required ? [{ object, path: at, mutation: 'removed' as const, given, entry }] : []),
  ];
}

/** The one path an `if`/`then` nests (`properties` one field deep at each step), its leaf, and whether each step is required. */
function leafOf(node: Node): { path: string[]; leaf: Node; required: boolean } | undefined {
  const path: string[] = [];
  let required = true;
  let at = node;
  for (;;) {
    const props = at.properties as Record<string, Node> | undefined;
    if (props === undefined) return { path, leaf: at, required };
    const names = Object.keys(props);
    if (names.length !== 1) return undefined;
    required &&= ((at.required ?? []) as string[]).includes(names[0]!);
    path.push(names[0]!);
    at = props[names[0]!]!;
  }
}

/** Whether a field's schema lets null through at must (a nullable field, or one whose null is advisory). */
function admitsNull(field: Node, resolve: (n: Node) => Node): boolean {
  const node = resolve(field);
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('null')) return true;
  if (Array.isArray(node.anyOf)) return (node.anyOf as Node[]).some((alt) => admitsNull(alt, resolve));
  if (Array.isArray(node.enum)) return (node.enum as unknown[]).includes(null);
  if ('const' in node) return node.const === null;
  return types.length === 0 && node.$ref === undefined && node.properties === undefined;
}

/** A stream rule over the whole stream (`some_chunk: { non_empty }`): that field emptied in every chunk. */
export function streamPlaces(spec: Spec, object: string): Place[] {
  const chunk = Object.values(spec.endpoints).find((ep) => ep.stream?.chunk === object);
  if (!chunk) return [];
  return spec.streaming.rules.filter((r) => r.some_chunk !== undefined && r.strength === 'must').map((r) => ({ object, path: [r.some_chunk!.non_empty], mutation: 'emptied' as const, entry: `streaming.rules.${r.id}` }));
}

type Holder = Record<string, unknown> | unknown[];

/** Each container a path's last step is read from, with that step (`*` expanded over the items there). */
function holders(root: unknown, path: readonly Step[]): [Holder, string | number][] {
  let at: unknown[] = [root];
  for (const step of path.slice(0, -1)) {
    at = at.flatMap((v) => (step === '*' ? (Array.isArray(v) ? v : []) : isContainer(v) ? [(v as Record<string, unknown>)[step as string]] : []));
  }
  const last = path.at(-1)!;
  return at.flatMap((v): [Holder, string | number][] => {
    if (last === '*') return Array.isArray(v) ? v.map((_, i): [Holder, number] => [v, i]) : [];
    return isContainer(v) ? [[v as Holder, last]] : [];
  });
}

const isContainer = (v: unknown): boolean => typeof v === 'object' && v !== null;

/**
 * Takes a place away in one parsed answer (a body, or one chunk), in place: removed or nulled where it
 * is, emptied wherever its container is (an implication's field need not be there first), after
 * setting what `given` says. Whether anything changed.
 */
export function takeAway(answer: unknown, place: Place): boolean {
  let changed = false;
  const set = (h: Holder, k: string | number, v: unknown) => {
    if ((h as Record<string, unknown>)[k] !== v) changed = true;
    (h as Record<string, unknown>)[k] = v;
  };
  if (place.given) for (const [h, k] of holders(answer, place.given.path)) set(h, k, place.given.value);
  for (const [h, k] of holders(answer, place.path)) {
    const here = Object.prototype.hasOwnProperty.call(h, k);
    if (place.mutation === 'emptied') set(h, k, []);
    else if (!here) continue;
    else if (place.mutation === 'nulled') set(h, k, null);
    else if (Array.isArray(h)) set(h, k, undefined);
    else {
      delete (h as Record<string, unknown>)[k as string];
      changed = true;
    }
  }
  return changed;
}
