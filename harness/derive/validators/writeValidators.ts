// Run by the build (scripts/build.mjs) from the bundle it just made, after spec/writeSpecCache.ts:
// every object of the cached spec, in each profile, compiled once and written beside the bundle as
// standalone code under the cache's digest (writePrecompiled.ts), which the registry loads instead of
// compiling for a spec that came from that cache. The parameters of the tools the checks offer too
// (ownValidator), so a run compiles nothing.
import { bundledSpecCache } from '#harness/spec/specCache.ts';
import { SAMPLE_TOOLS } from '#harness/checks/support/requests.ts';
import { writeOwnSchemas, writePrecompiled } from './writePrecompiled.ts';

const cache = bundledSpecCache();
if (cache === undefined) throw new Error('build: no spec cache beside the bundle to precompile validators for');
const beside = new URL('./', import.meta.url);
const own = writeOwnSchemas(SAMPLE_TOOLS.map((t) => t.function.parameters), beside);
console.log(`build: ${writePrecompiled(cache.spec, cache.digest, beside)} validators precompiled, and ${own} of the harness's own tool parameters`);
