import type { Prng } from './prng.ts';

type Schema = { [key: string]: unknown };

/**
 * A value valid against a tool's parameters (the JSON-schema subset the description names: type,
 * properties, required, enum inside properties; plus the common bounds). Required properties are
 * always present; optional ones sometimes. Deterministic for a given generator state.
 */
export function valueFromSchema(schema: unknown, rng: Prng, depth = 0): unknown {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as Schema;
  if (Array.isArray(s.enum) && s.enum.length > 0) return rng.pick(s.enum);
  if ('const' in s) return s.const;
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? 'null') : s.type;
  switch (type) {
    case 'object':
      return objectValue(s, rng, depth);
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      const max = typeof s.maxItems === 'number' ? s.maxItems : Math.max(min, 2);
      const n = depth > 3 ? min : rng.int(min, Math.max(min, Math.min(max, min + 1)));
      return Array.from({ length: n }, () => valueFromSchema(s.items, rng, depth + 1));
    }
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : 0;
      const max = typeof s.maximum === 'number' ? s.maximum : min + 100;
      const v = min + rng.next() * (max - min);
      return type === 'integer' ? Math.min(max, Math.max(min, Math.round(v))) : Math.round(v * 100) / 100;
    }
    case 'boolean':
      return rng.next() < 0.5;
    case 'null':
      return null;
    case 'string':
      return stringValue(s, rng);
    default:
      // No type: an object when properties are given, else a string.
      return s.properties ? objectValue(s, rng, depth) : stringValue(s, rng);
  }
}

function objectValue(s: Schema, rng: Prng, depth: number): Record<string, unknown> {
  const props = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(props)) {
    if (required.has(name) || (depth < 3 && rng.next() < 0.5)) out[name] = valueFromSchema(sub, rng, depth + 1);
  }
  return out;
}

const WORDS = ['Paris', 'Berlin', 'blue', 'weather', 'today', 'report', 'alpha', 'beta'];

function stringValue(s: Schema, rng: Prng): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  let text = rng.pick(WORDS);
  while (text.length < min) text += rng.pick(WORDS);
  return typeof s.maxLength === 'number' ? text.slice(0, s.maxLength) : text;
}
