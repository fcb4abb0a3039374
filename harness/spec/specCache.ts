import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Spec } from './model.ts';

/**
 * A loaded spec kept beside the bundled CLI (dist/cli/spec-cache.json, written by the build): the
 * digest of the spec directory's files and what loading them gave. Loading parses YAML and compiles
 * the meta-schema (0.2 s of a 0.9 s run); a directory whose files hash the same loads to the same
 * spec, so the bundle skips both. Beside the TypeScript sources there is no cache: a developer's
 * change to the loader always runs.
 */
export interface SpecCache {
  digest: string;
  spec: Spec;
  origins: Record<string, string>;
}

export const SPEC_CACHE_FILE = 'spec-cache.json';

/** SHA-256 over the directory's file names and contents, in name order. */
export function specDigest(dir: string): string {
  const hash = createHash('sha256');
  for (const entry of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    hash.update(`${entry.name}\0`).update(readFileSync(join(dir, entry.name))).update('\0');
  }
  return hash.digest('hex');
}

let bundled: SpecCache | null | undefined;

/** The cache beside this module (the bundle's), when there is one. */
export function bundledSpecCache(): SpecCache | undefined {
  if (bundled === undefined) {
    const file = new URL(`./${SPEC_CACHE_FILE}`, import.meta.url);
    bundled = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SpecCache) : null;
  }
  return bundled ?? undefined;
}

/**
 * Specs that came from the bundle's cache, with the digest they were cached under: what the build
 * precompiled for that digest holds for them too (derive/validators/precompiled.ts).
 */
const fromBundle = new WeakMap<Spec, string>();

export function markBundled(spec: Spec, digest: string): Spec {
  fromBundle.set(spec, digest);
  return spec;
}

/** The digest of the spec files a spec was cached from; undefined for a spec loaded from its files. */
export function bundledDigest(spec: Spec): string | undefined {
  return fromBundle.get(spec);
}
