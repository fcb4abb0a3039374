// Test support: whether dist/ (the bundled CLI, its spec cache and precompiled validators) was built
// from the sources and spec/ as they are now. Tests of what the build wrote skip, saying so, when not.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freshDist } from '../../bin/dist.js';
import { DEFAULT_SPEC_DIR } from '#harness/spec/load.ts';
import { SPEC_CACHE_FILE, specDigest, type SpecCache } from '#harness/spec/specCache.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = new URL(`../../dist/cli/${SPEC_CACHE_FILE}`, import.meta.url);

/** Why dist/ does not show the current build, or undefined when it does. */
export function staleDist(): string | undefined {
  if (!existsSync(CACHE)) return 'no dist/: run npm run build';
  if (!freshDist(ROOT)) return 'dist/ is older than the sources: run npm run build';
  if ((JSON.parse(readFileSync(CACHE, 'utf8')) as SpecCache).digest !== specDigest(DEFAULT_SPEC_DIR)) return 'dist/ was built from another spec/: run npm run build';
  return undefined;
}
