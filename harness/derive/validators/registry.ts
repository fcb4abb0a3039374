import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { bundledDigest } from '#harness/spec/specCache.ts';
import type { Spec } from '#harness/spec/model.ts';
import { deriveObjectSchema, schemaId, type DeriveOptions } from '#harness/derive/schemas/index.ts';
import { createAjv } from './createAjv.ts';
import { loadPrecompiled, loadPrecompiledOwn } from './precompiled.ts';
import { toViolations, type Violation } from './violations.ts';

export type Judge = (body: unknown) => Violation[];

interface Compiled {
  /** Made at the first compile: a spec whose validators the build precompiled needs none. */
  ajv?: Ajv2020;
  byId: Map<string, ValidateFunction>;
}

const perSpec = new WeakMap<Spec, Compiled>();

/** Where the build writes the precompiled validators: beside this module, once bundled (none beside the sources). */
const BESIDE = new URL('./', import.meta.url);

/**
 * A compiled validator for one object of the spec in one profile (and, for requests, one model's
 * bounds): the build's (precompiled.ts) for the spec it was built with, else compiled the first time
 * it is asked for; kept for the life of the spec object.
 */
export function validatorFor(spec: Spec, objectName: string, options: DeriveOptions = { profile: 'default' }): Judge {
  let compiled = perSpec.get(spec);
  if (!compiled) {
    compiled = { byId: new Map() };
    perSpec.set(spec, compiled);
  }
  const id = schemaId(objectName, options);
  let validate = compiled.byId.get(id);
  if (!validate) {
    validate = loadPrecompiled(BESIDE, bundledDigest(spec), objectName, options) ?? (compiled.ajv ??= createAjv()).compile(deriveObjectSchema(spec, objectName, options));
    compiled.byId.set(id, validate);
  }
  const fn = validate;
  return (body) => (fn(body) ? [] : toViolations(fn.errors));
}

/** One ajv for the schemas of the harness's own that the build did not precompile (made at the first). */
let ownAjv: Ajv2020 | undefined;
const ownValidators = new Map<string, ValidateFunction>();

/**
 * A validator for a schema of the harness's own (the parameters of a tool it offers): the build's,
 * written by content (writeOwnSchemas), else compiled once per content. Not checked against the
 * draft's meta-schema: it is ours, and compiling that costs 30 ms the first time.
 */
export function ownValidator(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = ownValidators.get(key);
  if (!validate) {
    validate = loadPrecompiledOwn(BESIDE, schema) ?? (ownAjv ??= createAjv({ ownSchemas: true })).compile(schema);
    ownValidators.set(key, validate);
  }
  return validate;
}
