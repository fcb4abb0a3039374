import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import type { DeriveOptions } from '#harness/derive/schemas/index.ts';

/**
 * Validators the build compiles once and writes beside the bundle as ajv standalone code
 * (writePrecompiled.ts), one CommonJS module per object and profile: compiling the derived schemas
 * was a sixth of a run. Each module carries the digest of the spec files it was compiled from
 * (spec/specCache.ts), and serves only a spec cached under that digest: for any other spec, a
 * module of another spec, or none, the registry compiles.
 */

/** The file one object's validator is written to. */
export function precompiledFile(objectName: string, options: DeriveOptions): string {
  return `validator-${options.profile}${options.model ? `-${options.model}` : ''}-${objectName}.cjs`;
}

/** What each module exports beside the validator: the digest of the spec files it was compiled from. */
export const SPEC_DIGEST_EXPORT = 'specDigest';

/**
 * The validator written in `dir` for this object when it was compiled from the spec files whose
 * digest is `specDigest`; undefined (compile it) for a spec not cached (no digest), a missing
 * module, or one compiled from another spec.
 */
export function loadPrecompiled(dir: URL, specDigest: string | undefined, objectName: string, options: DeriveOptions): ValidateFunction | undefined {
  if (specDigest === undefined) return undefined;
  const file = fileURLToPath(new URL(precompiledFile(objectName, options), dir));
  if (!existsSync(file)) return undefined;
  const validate = createRequire(file)(file) as ValidateFunction & Record<typeof SPEC_DIGEST_EXPORT, unknown>;
  return validate[SPEC_DIGEST_EXPORT] === specDigest ? validate : undefined;
}

/**
 * The file a schema of the harness's own (a tool's parameters it offers) is written to: named by its
 * content, so a schema changed in the sources is simply not found, and compiled.
 */
export function ownSchemaFile(schema: unknown): string {
  return `validator-own-${createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 16)}.cjs`;
}

/** The validator the build wrote in `dir` for this schema of the harness's own; undefined: compile it. */
export function loadPrecompiledOwn(dir: URL, schema: unknown): ValidateFunction | undefined {
  const file = fileURLToPath(new URL(ownSchemaFile(schema), dir));
  return existsSync(file) ? (createRequire(file)(file) as ValidateFunction) : undefined;
}
