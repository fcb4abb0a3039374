// Run by the build (scripts/build.mjs) from the bundle it just made: every object of the shipped
// spec, in each profile, compiled once and written beside the bundle as standalone code, which the
// registry loads instead of compiling when the spec came from the bundle's cache (spec/specCache.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { deriveObjectSchema, type DeriveOptions } from '#harness/derive/schemas/index.ts';
import { DEFAULT_SPEC_DIR, loadFromFiles } from '#harness/spec/load.ts';
import { createAjv } from './createAjv.ts';
import { precompiledFile } from './registry.ts';

/** ajv's standalone module is CommonJS with a default export: under NodeNext the function sits one level down. */
type ToCode = (ajv: unknown, validate: unknown) => string;
const mod = standaloneCode as unknown as ToCode | { default: ToCode };
const toCode: ToCode = typeof mod === 'function' ? mod : mod.default;

const { spec } = loadFromFiles(DEFAULT_SPEC_DIR);
let written = 0;
for (const profile of ['default', 'strict'] as const) {
  for (const objectName of Object.keys(spec.objects)) {
    const options: DeriveOptions = { profile };
    const ajv = createAjv({ source: true });
    const validate = ajv.compile(deriveObjectSchema(spec, objectName, options));
    writeFileSync(fileURLToPath(new URL(`./${precompiledFile(objectName, options)}`, import.meta.url)), toCode(ajv, validate));
    written += 1;
  }
}
console.log(`build: ${written} validators precompiled`);
