// Whether dist/ may run: shared by bin/svc-conformance.js (reads the stamp) and scripts/build.mjs
// (writes it). Plain JavaScript: it runs before anything could transpile TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The bundle's entry and the stamp beside it, relative to the package root. */
export const DIST_ENTRY = 'dist/cli/main.js';
export const DIST_STAMP = 'dist/stamp.json';

/**
 * One digest of the sources a bundle was built from: paths and contents, not mtimes, so a
 * checkout, a copy or an install (whose mtimes say nothing) compares right. About 5 ms for the
 * CLI's ~220 modules.
 */
export function digestOf(root, inputs) {
  const hash = createHash('sha256');
  for (const file of inputs) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex');
}

/**
 * The file URL of dist's entry when it was built from the sources present, else undefined (run the
 * sources instead). An installed package without harness/ has nothing to compare: its dist is the
 * one `npm pack` built.
 */
export function freshDist(root) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, DIST_STAMP), 'utf8'));
  } catch {
    return undefined;
  }
  if (!existsSync(join(root, DIST_ENTRY))) return undefined;
  if (existsSync(join(root, 'harness'))) {
    try {
      if (digestOf(root, stamp.inputs) !== stamp.digest) return undefined;
    } catch {
      return undefined; // a source the bundle was built from is gone
    }
  }
  return pathToFileURL(join(root, DIST_ENTRY)).href;
}
