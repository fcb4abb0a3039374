import { isUnspecified, type PerModel, type Spec, type Strength, type TypeExpr } from '#harness/spec/model.ts';
import { parseQuantity } from '#harness/spec/quantity.ts';
import { SOURCE, SPEC_REF, STRENGTH, type JsonSchema } from './annotations.ts';
import { implicationLayers } from './implicationLayers.ts';
import { weakest } from './weakest.ts';

export type Profile = 'default' | 'strict';

export interface DeriveOptions {
  /** default: unknown extra fields allowed; strict: each object closes with additionalProperties false. */
  profile: Profile;
  /** Resolve per-model bounds (max_tokens) for this model id; without it they are left open. */
  model?: string;
}

export interface DeriveContext extends DeriveOptions {
  spec: Spec;
  /** Object names the schema being built refers to; they become its $defs. */
  refs: Set<string>;
}

/** JSON Schema for one field (or item, or alternative) of the spec. */
export function typeExprToSchema(expr: TypeExpr, specPath: string, inherited: Strength, ctx: DeriveContext): JsonSchema {
  const strength = weakest(expr.strength ?? inherited, inherited);
  const node: JsonSchema = { [STRENGTH]: strength, [SPEC_REF]: specPath };
  if (expr.source) node[SOURCE] = expr.source;
  if (expr.notes) node.description = expr.notes.trim();
  const layers: JsonSchema[] = [];

  if (expr.ref !== undefined) {
    if (strength === 'must') {
      ctx.refs.add(expr.ref);
      node.$ref = `#/$defs/${expr.ref}`;
    } else {
      // A shared object used by an advisory field is inlined at that field's strength, so nothing
      // found inside it (a chunk's undescribed `usage`) is reported stronger than the field itself.
      const target = ctx.spec.objects[expr.ref];
      if (!target) throw new Error(`no object \`${expr.ref}\` in the spec`);
      Object.assign(node, fieldsToSchema(target.fields, `objects.${expr.ref}.fields`, strength, ctx));
      layers.push(...requiredLayers(target.fields, `objects.${expr.ref}.fields`, strength), ...implicationLayers(target, expr.ref, strength));
    }
  }
  if (expr.one_of) {
    node.anyOf = expr.one_of.map((alt, i) => typeExprToSchema(alt, `${specPath}.one_of.${i}`, strength, ctx));
  }
  if (expr.type !== undefined) node.type = Array.isArray(expr.type) ? [...expr.type] : expr.type;

  // A nullable field gets null as one more type, or, written with a ref or alternatives, as one more
  // alternative. Null whose admissibility is unspecified passes here and is reported by a layer.
  const nullable = expr.nullable === true || expr.nullable === 'unspecified';
  if (nullable) {
    if (node.type !== undefined) {
      const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
      node.type = types.includes('null') ? node.type : [...types, 'null'];
    } else if (Array.isArray(node.anyOf)) {
      node.anyOf = [...(node.anyOf as JsonSchema[]), { type: 'null' }];
    } else if (node.$ref !== undefined) {
      // The ref moves into an alternative that keeps the field's annotations.
      node.anyOf = [{ $ref: node.$ref, [STRENGTH]: strength, [SPEC_REF]: specPath }, { type: 'null' }];
      delete node.$ref;
    }
  }
  if (expr.nullable === 'unspecified') {
    layers.push({ not: { type: 'null' }, [STRENGTH]: 'unspecified', [SPEC_REF]: `${specPath}.nullable` });
  }

  if (expr.enum) node.enum = nullable ? [...expr.enum, null] : expr.enum;
  if (expr.enum_ref === 'finish_reasons') {
    const values: unknown[] = Object.keys(ctx.spec.finish_reasons.values);
    node.enum = nullable ? [...values, null] : values;
  }
  if (expr.const !== undefined) node.const = expr.const;
  const min = bound(expr.minimum, 'low', ctx);
  const max = bound(expr.maximum, 'high', ctx);
  if (min !== undefined) node.minimum = min;
  if (max !== undefined) node.maximum = max;
  if (typeof expr.min_items === 'number') node.minItems = expr.min_items;
  else if (expr.min_items !== undefined) {
    // A bound with its own basis sits in a layer of its own, so a violation names its entry.
    const m = expr.min_items;
    layers.push({ minItems: m.count, [STRENGTH]: weakest(m.strength, strength), [SPEC_REF]: `${specPath}.min_items`, ...(m.note ? { description: m.note.trim() } : {}) });
  }
  if (typeof expr.max_items === 'number') node.maxItems = expr.max_items;
  if (expr.min_length !== undefined) node.minLength = expr.min_length;
  if (expr.pattern) {
    const p = { pattern: expr.pattern.regex };
    const level = weakest(expr.pattern.strength, strength);
    if (level === strength) Object.assign(node, p);
    else layers.push({ ...p, [STRENGTH]: level, [SPEC_REF]: `${specPath}.pattern`, ...(expr.pattern.note ? { description: expr.pattern.note.trim() } : {}) });
  }
  if (expr.json_string) {
    const j = { contentMediaType: 'application/json' };
    const level = weakest(expr.json_string.strength, strength);
    if (level === strength) Object.assign(node, j);
    else layers.push({ ...j, [STRENGTH]: level, [SPEC_REF]: `${specPath}.json_string` });
  }
  if (expr.items) node.items = typeExprToSchema(expr.items, `${specPath}.items`, strength, ctx);
  if (expr.prefix_items) node.prefixItems = expr.prefix_items.map((p, i) => typeExprToSchema(p, `${specPath}.prefix_items.${i}`, strength, ctx));
  if (expr.fields) {
    Object.assign(node, fieldsToSchema(expr.fields, `${specPath}.fields`, strength, ctx));
    layers.push(...requiredLayers(expr.fields, `${specPath}.fields`, strength));
  }
  if (expr.default !== undefined && !isPerModel(expr.default)) node.default = expr.default;

  if (layers.length > 0) node.allOf = layers;
  return node;
}

/** properties + must-level `required` (+ additionalProperties false in the strict profile). */
export function fieldsToSchema(fields: Record<string, TypeExpr>, specPath: string, strength: Strength, ctx: DeriveContext): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(fields)) {
    properties[name] = typeExprToSchema(f, `${specPath}.${name}`, strength, ctx);
    if (f.required === true && weakest(f.strength ?? strength, strength) === 'must') required.push(name);
  }
  const out: JsonSchema = { type: 'object', properties };
  if (required.length > 0) out.required = required;
  if (ctx.profile === 'strict') out.additionalProperties = false;
  return out;
}

/** Required-ness weaker than must (a should or unspecified field, or `required: unspecified`). */
export function requiredLayers(fields: Record<string, TypeExpr>, specPath: string, strength: Strength): JsonSchema[] {
  const layers: JsonSchema[] = [];
  for (const [name, f] of Object.entries(fields)) {
    const fieldStrength = weakest(f.strength ?? strength, strength);
    if (f.required === true && fieldStrength !== 'must') {
      layers.push({ required: [name], [STRENGTH]: fieldStrength, [SPEC_REF]: `${specPath}.${name}.required` });
    } else if (f.required === 'unspecified') {
      // Presence the description leaves open is advisory whatever the field's own strength.
      layers.push({ required: [name], [STRENGTH]: 'unspecified', [SPEC_REF]: `${specPath}.${name}.required` });
    }
  }
  return layers;
}

function isPerModel(value: unknown): value is PerModel {
  return typeof value === 'object' && value !== null && 'per_model' in value;
}

/**
 * A per-model bound resolves only when a model is given and the model states the quantity. For an
 * inexact quantity ("8K") the lenient reading is used, so a schema never fails a value that is right
 * under one reading of the description.
 */
function bound(value: number | PerModel | undefined, lenient: 'low' | 'high', ctx: DeriveContext): number | undefined {
  if (value === undefined || typeof value === 'number') return value;
  if (ctx.model === undefined) return undefined;
  const model = ctx.spec.models[ctx.model];
  const q = model?.[value.per_model];
  if (q === undefined || isUnspecified(q)) return undefined;
  const range = parseQuantity(q);
  return range === undefined ? undefined : lenient === 'high' ? range.high : range.low;
}
