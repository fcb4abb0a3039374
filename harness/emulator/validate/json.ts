/** JSON helpers: what a value is, deep equality, and dotted paths. */
import { isRecord } from '#harness/core/isRecord.ts';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export { isRecord };

/** The JSON type of a value as a message names it (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): JsonType | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'object') return 'object';
  return 'undefined';
}

/** Whether `value` is of the spec's type `type` (an integer is also a number). */
export function hasJsonType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
  }
}

export { deepEqual } from '#harness/core/deepEqual.ts';

/** `messages` + 0 + `role` -> `messages.0.role`; the root path is null. */
export function joinPath(path: string | null, key: string | number): string {
  return path === null ? String(key) : `${path}.${key}`;
}

/** Walks a dotted path (`response_format.type`, `messages.0.role`) through objects and arrays. */
export function getPath(value: unknown, dotted: string): unknown {
  let current: unknown = value;
  for (const key of dotted.split('.')) {
    if (Array.isArray(current) && /^[0-9]+$/.test(key)) current = current[Number(key)];
    else if (isRecord(current)) current = Object.hasOwn(current, key) ? current[key] : undefined;
    else return undefined;
  }
  return current;
}

/**
 * Whether a field is present. A JSON `null` counts as absent: clients that serialise unset optional
 * fields write them as null, and the description never gives null a meaning of its own (a field whose
 * type does not admit null is refused by field validation anyway).
 */
export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A value as a message quotes it: JSON, shortened. */
export function show(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
