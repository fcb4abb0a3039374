// Run by the build (scripts/build.mjs) from the bundle it just made: loads the shipped spec with the
// bundled loader and writes dist/cli/spec-cache.json beside it (see specCache.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SPEC_DIR, loadFromFiles } from './load.ts';
import { SPEC_CACHE_FILE, specDigest, type SpecCache } from './specCache.ts';

const { spec, origins } = loadFromFiles(DEFAULT_SPEC_DIR);
const cache: SpecCache = { digest: specDigest(DEFAULT_SPEC_DIR), spec, origins };
writeFileSync(fileURLToPath(new URL(`./${SPEC_CACHE_FILE}`, import.meta.url)), JSON.stringify(cache));
