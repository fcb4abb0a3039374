// Run by the build (scripts/build.mjs) from the bundle it just made: the parameters of every tool a
// request of the harness offers (the checks' and the arbitraries'), compiled once and written
// beside the bundle by content (derive/validators/writePrecompiled.ts writeOwnSchemas), which
// ownValidator loads instead of compiling: a run from the bundle compiles no schema.
import { DRAWN_TOOLS } from '#harness/derive/arbitraries/index.ts';
import { writeOwnSchemas } from '#harness/derive/validators/writePrecompiled.ts';
import { SAMPLE_TOOLS } from './support/requests.ts';

const parameters = [...SAMPLE_TOOLS, ...DRAWN_TOOLS].map((t) => (t.function as { parameters: object }).parameters);
console.log(`build: ${writeOwnSchemas(parameters, new URL('./', import.meta.url))} tool parameters precompiled`);
