// Run by the build (scripts/build.mjs) from the bundle it just made, after spec/writeSpecCache.ts:
// what the checks are made from that the build can derive once, written beside the bundle, so a
// run from the bundle derives and compiles nothing for them:
// - the parameters of every tool a request of the harness offers (the checks' and the drawn ones),
//   as validators named by content (derive/validators/writePrecompiled.ts writeOwnSchemas), which
//   ownValidator loads instead of compiling;
// - each object's schema facts (schema/schemaFacts.ts) under the cached spec's digest.
import { DRAWN_TOOLS } from '#harness/derive/arbitraries/index.ts';
import { writeOwnSchemas } from '#harness/derive/validators/writePrecompiled.ts';
import { bundledSpecCache } from '#harness/spec/specCache.ts';
import { writeSchemaFacts } from './schema/schemaFacts.ts';
import { SAMPLE_TOOLS } from './support/requests.ts';

const beside = new URL('./', import.meta.url);
const parameters = [...SAMPLE_TOOLS, ...DRAWN_TOOLS].map((t) => (t.function as { parameters: object }).parameters);
const tools = writeOwnSchemas(parameters, beside);
const cache = bundledSpecCache();
if (cache === undefined) throw new Error('build: no spec cache beside the bundle to derive the schema facts of');
console.log(`build: ${tools} tool parameters precompiled, the schema facts of ${writeSchemaFacts(cache.spec, cache.digest, beside)} objects written`);
