import { writeFileSync } from 'node:fs';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { deriveObjectSchema, type DeriveOptions } from '#harness/derive/schemas/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import { createAjv } from './createAjv.ts';
import { ownSchemaFile, precompiledFile, SPEC_DIGEST_EXPORT } from './precompiled.ts';

/** ajv's standalone module is CommonJS with a default export: under NodeNext the function sits one level down. */
type ToCode = (ajv: unknown, validate: unknown) => string;
const mod = standaloneCode as unknown as ToCode | { default: ToCode };
const toCode: ToCode = typeof mod === 'function' ? mod : mod.default;

const PROFILES = ['default', 'strict'] as const;

/**
 * Compiles the objects' validators (every object by default) in each profile and writes them into
 * `dir` as the modules precompiled.ts loads, keyed by `specDigest`; returns how many.
 */
export function writePrecompiled(spec: Spec, specDigest: string, dir: URL, objectNames: readonly string[] = Object.keys(spec.objects)): number {
  let written = 0;
  for (const profile of PROFILES) {
    for (const objectName of objectNames) {
      const options: DeriveOptions = { profile };
      const ajv = createAjv({ source: true });
      const code = toCode(ajv, ajv.compile(deriveObjectSchema(spec, objectName, options)));
      writeFileSync(new URL(precompiledFile(objectName, options), dir), `${code}\nmodule.exports.${SPEC_DIGEST_EXPORT} = ${JSON.stringify(specDigest)};\n`);
      written += 1;
    }
  }
  return written;
}

/** Compiles schemas of the harness's own (ownValidator, registry.ts) and writes them into `dir`, named by content; returns how many. */
export function writeOwnSchemas(schemas: readonly object[], dir: URL): number {
  for (const schema of schemas) {
    const ajv = createAjv({ source: true, ownSchemas: true });
    writeFileSync(new URL(ownSchemaFile(schema), dir), `${toCode(ajv, ajv.compile(schema))}\n`);
  }
  return schemas.length;
}
