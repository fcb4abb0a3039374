import type { SpecObject, Strength } from '#harness/spec/model.ts';
import { SOURCE, SPEC_REF, STRENGTH, type JsonSchema } from './annotations.ts';
import { weakest } from './weakest.ts';

/**
 * An object's implications (`implies`) as `if`/`then` layers: when one field holds a value, another
 * is present and carries items. Every node of a `then` carries the implication's strength and
 * entry, since a violation reads both from the node that failed.
 */
export function implicationLayers(object: SpecObject, name: string, inherited: Strength): JsonSchema[] {
  return (object.implies ?? []).map((imp, i) => {
    const notes: JsonSchema = { [STRENGTH]: weakest(imp.strength, inherited), [SPEC_REF]: `objects.${name}.implies.${i}` };
    const leaf: JsonSchema = { ...notes, ...(imp.then.min_items === undefined ? {} : { type: 'array', minItems: imp.then.min_items }) };
    return {
      ...notes,
      [SOURCE]: imp.source,
      description: imp.statement.trim(),
      if: atPath(imp.if.field.split('.'), { const: imp.if.equals }, true, {}),
      then: atPath(imp.then.field.split('.'), leaf, imp.then.required === true, notes),
    };
  });
}

/**
 * Any JSON type, on a step between the object and the leaf: the step's own type is its field's to
 * judge (a null `message` is reported once, there), while ajv's strict mode wants a type beside `required`.
 */
const ANY_TYPE = ['object', 'array', 'string', 'number', 'boolean', 'null'];

/** `leaf` at a dotted path below an object (`a.b`: `{properties: {a: {properties: {b: leaf}}}}`), each step required when asked. */
function atPath(path: readonly string[], leaf: JsonSchema, required: boolean, notes: JsonSchema): JsonSchema {
  const [head, ...rest] = path as [string, ...string[]];
  const inner = rest.length === 0 ? leaf : { ...notes, type: ANY_TYPE, ...atPath(rest, leaf, required, notes) };
  return { ...notes, properties: { [head]: inner }, ...(required ? { required: [head] } : {}) };
}
