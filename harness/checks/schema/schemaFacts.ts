import { deriveObjectSchema } from '#harness/derive/schemas/index.ts';
import { readDerived, writeDerived } from '#harness/derive/derivedBeside.ts';
import type { Spec } from '#harness/spec/model.ts';

/** What the schema checks of an object are made from: the levels its schema constrains, and the objects it bundles. */
export interface SchemaFacts {
  /** Levels (x-strength) at which the object's derived schema constrains anything; must and strict always. */
  levels: string[];
  /** The object and every object its schema bundles, as spec entries: a break in any of them is the check's business. */
  refs: string[];
}

const CONSTRAINTS = new Set(['type', 'enum', 'const', 'minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'pattern', 'required', 'not', 'contentMediaType']);

/** Written by the build for the shipped spec (derive/derivedBeside.ts): a run from the bundle derives no schema for them. */
export const SCHEMA_FACTS_FILE = 'schema-facts.json';

/** Where the build writes them: beside this module, once bundled (none beside the sources). */
const BESIDE = new URL('./', import.meta.url);

/** The object's facts as the build wrote them for this spec, else derived from its schema. */
export function schemaFactsOf(spec: Spec, object: string, dir: URL = BESIDE): SchemaFacts {
  return readDerived<SchemaFacts>(SCHEMA_FACTS_FILE, spec, dir)?.[object] ?? deriveSchemaFacts(spec, object);
}

export function deriveSchemaFacts(spec: Spec, object: string): SchemaFacts {
  const schema = deriveObjectSchema(spec, object, { profile: 'default' });
  const found = new Set<string>(['must', 'strict']);
  const walk = (node: unknown, inherited: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, inherited));
    if (typeof node !== 'object' || node === null) return;
    const n = node as Record<string, unknown>;
    const level = typeof n['x-strength'] === 'string' ? (n['x-strength'] as string) : inherited;
    if (Object.keys(n).some((k) => CONSTRAINTS.has(k))) found.add(level);
    for (const [k, v] of Object.entries(n)) if (k !== 'enum' && k !== 'const' && k !== 'default') walk(v, level);
  };
  walk(schema, 'must');
  const defs = schema.$defs as Record<string, unknown> | undefined;
  return { levels: [...found], refs: [object, ...Object.keys(defs ?? {})].map((o) => `objects.${o}`) };
}

/** Writes every object's facts for the spec cached under `digest` into `dir`; returns how many. */
export function writeSchemaFacts(spec: Spec, digest: string, dir: URL): number {
  const objects = Object.keys(spec.objects);
  writeDerived(SCHEMA_FACTS_FILE, digest, Object.fromEntries(objects.map((o) => [o, deriveSchemaFacts(spec, o)])), dir);
  return objects.length;
}
