// Run by the build (scripts/build.mjs) from the bundle it just made, after spec/writeSpecCache.ts:
// which breaks of a chat request each model of the cached spec can be drawn alone, written beside
// the bundle under the cache's digest (breakFeasibility.ts), which invalidChatRequest reads instead
// of drawing each break for a spec that came from that cache.
import { bundledSpecCache } from '#harness/spec/specCache.ts';
import { writeFeasibility } from './breakFeasibility.ts';
import { breakFeasibility } from './invalidChatRequest.ts';

const cache = bundledSpecCache();
if (cache === undefined) throw new Error('build: no spec cache beside the bundle to test the breaks of');
const byKey: Record<string, boolean[]> = {};
for (const model of Object.keys(cache.spec.models)) {
  const { key, drawable } = breakFeasibility(cache.spec, { model });
  byKey[key] = drawable;
}
writeFeasibility(cache.digest, byKey, new URL('./', import.meta.url));
console.log(`build: the breaks of ${Object.keys(byKey).length} models tested`);
