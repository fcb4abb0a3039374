// Run by the build (scripts/build.mjs) from the bundle it just made, after spec/writeSpecCache.ts:
// every object of the cached spec, in each profile, compiled once and written beside the bundle as
// standalone code under the cache's digest (writePrecompiled.ts), which the registry loads instead of
// compiling for a spec that came from that cache.
import { bundledSpecCache } from '#harness/spec/specCache.ts';
import { writePrecompiled } from './writePrecompiled.ts';

const cache = bundledSpecCache();
if (cache === undefined) throw new Error('build: no spec cache beside the bundle to precompile validators for');
console.log(`build: ${writePrecompiled(cache.spec, cache.digest, new URL('./', import.meta.url))} validators precompiled`);
