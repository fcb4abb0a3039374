import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { isBundledSpec } from '#harness/spec/specCache.ts';
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
    validate = precompiled(spec, objectName, options) ?? compiled.ajv.compile(deriveObjectSchema(spec, objectName, options));
    compiled.byId.set(id, validate);
  }
  const fn = validate;
  return (body) => (fn(body) ? [] : toViolations(fn.errors));
}

/** The file, beside the bundle, the build writes one object's precompiled validator to. */
export function precompiledFile(objectName: string, options: DeriveOptions): string {
  return `validator-${options.profile}${options.model ? `-${options.model}` : ''}-${objectName}.cjs`;
}

const requireBeside = createRequire(import.meta.url);

/**
 * The validator the build wrote as standalone code (derive/validators/writeValidators.ts), for the
 * spec the bundle was built with: compiling the derived schemas was a sixth of a run. Any other
 * spec, and the TypeScript sources, compile.
 */
function precompiled(spec: Spec, objectName: string, options: DeriveOptions): ValidateFunction | undefined {
  if (!isBundledSpec(spec)) return undefined;
  const file = new URL(`./${precompiledFile(objectName, options)}`, import.meta.url);
  if (!existsSync(file)) return undefined;
  const mod = requireBeside(fileURLToPath(file)) as ValidateFunction | { default: ValidateFunction };
  return typeof mod === 'function' ? mod : mod.default;
}
