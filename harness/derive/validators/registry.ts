import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { Spec } from '#harness/spec/model.ts';
import { deriveObjectSchema, schemaId, type DeriveOptions } from '#harness/derive/schemas/index.ts';
import { createAjv } from './createAjv.ts';
import { toViolations, type Violation } from './violations.ts';

export type Judge = (body: unknown) => Violation[];

interface Compiled {
  ajv: Ajv2020;
  byId: Map<string, ValidateFunction>;
}

const perSpec = new WeakMap<Spec, Compiled>();

/**
 * A compiled validator for one object of the spec in one profile (and, for requests, one model's
 * bounds). Compiled the first time it is asked for and kept for the life of the spec object.
 */
export function validatorFor(spec: Spec, objectName: string, options: DeriveOptions = { profile: 'default' }): Judge {
  let compiled = perSpec.get(spec);
  if (!compiled) {
    compiled = { ajv: createAjv(), byId: new Map() };
    perSpec.set(spec, compiled);
  }
  const id = schemaId(objectName, options);
  let validate = compiled.byId.get(id);
  if (!validate) {
    validate = compiled.ajv.compile(deriveObjectSchema(spec, objectName, options));
    compiled.byId.set(id, validate);
  }
  const fn = validate;
  return (body) => (fn(body) ? [] : toViolations(fn.errors));
}
