import { memoPer } from '#harness/core/memoPer.ts';
import type { Spec } from '#harness/spec/model.ts';
import { SOURCE, SPEC_REF, STRENGTH, type JsonSchema } from './annotations.ts';
import { implicationLayers } from './implicationLayers.ts';
import { fieldsToSchema, requiredLayers, type DeriveContext, type DeriveOptions } from './typeExprToSchema.ts';

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
export const SCHEMA_ID_BASE = 'https://svc-conformance.local/schemas';

export function schemaId(objectName: string, options: DeriveOptions): string {
  return `${SCHEMA_ID_BASE}/${options.profile}${options.model ? `/${options.model}` : ''}/${objectName}.json`;
}

/** The body of one object's schema, with `$ref`s to `#/$defs/<name>` for the objects it uses. */
export function objectBody(spec: Spec, name: string, ctx: DeriveContext): JsonSchema {
  const object = spec.objects[name];
  if (!object) throw new Error(`no object \`${name}\` in the spec`);
  const path = `objects.${name}.fields`;
  const body: JsonSchema = {
    title: object.title,
    ...(object.notes ? { description: object.notes.trim() } : {}),
    [STRENGTH]: 'must',
    [SPEC_REF]: `objects.${name}`,
    [SOURCE]: object.source,
    ...fieldsToSchema(object.fields, path, 'must', ctx),
  };
  const layers = [...requiredLayers(object.fields, path, 'must'), ...implicationLayers(object, name, 'must')];
  if (layers.length > 0) body.allOf = layers;
  return body;
}

const derived = memoPer<Spec, JsonSchema>();

/**
 * A standalone draft 2020-12 schema for one object of the spec: the objects it refers to are
 * bundled under $defs, so the file validates on its own. Derived once per spec, object and options
 * (the registry asks for the same schema for every level of a schema check) and frozen, as it is
 * shared.
 */
export function deriveObjectSchema(spec: Spec, name: string, options: DeriveOptions): JsonSchema {
  // Frozen as a copy: the schema holds some of the spec's own arrays (an enum's values).
  return derived(spec, schemaId(name, options), () => deepFreeze(structuredClone(derive(spec, name, options))));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function derive(spec: Spec, name: string, options: DeriveOptions): JsonSchema {
  const ctx: DeriveContext = { ...options, spec, refs: new Set() };
  const root = objectBody(spec, name, ctx);
  const defs: Record<string, JsonSchema> = {};
  const pending = [...ctx.refs];
  while (pending.length > 0) {
    const ref = pending.pop()!;
    if (defs[ref] !== undefined) continue;
    const before = new Set(ctx.refs);
    defs[ref] = objectBody(spec, ref, ctx);
    for (const r of ctx.refs) if (!before.has(r)) pending.push(r);
  }
  if (ctx.refs.has(name)) defs[name] = root;
  const sortedDefs = Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b)));
  return {
    $schema: SCHEMA_DIALECT,
    $id: schemaId(name, options),
    ...root,
    ...(Object.keys(sortedDefs).length > 0 ? { $defs: sortedDefs } : {}),
  };
}

/** Every object of the spec, by name, in one profile. */
export function deriveAllSchemas(spec: Spec, options: DeriveOptions): Record<string, JsonSchema> {
  return Object.fromEntries(Object.keys(spec.objects).map((name) => [name, deriveObjectSchema(spec, name, options)]));
}
