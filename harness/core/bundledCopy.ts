import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadWithCodeCache } from './codeCache.ts';

/**
 * A dependency's code the build copies beside the bundle as one CommonJS file with its V8 code cache
 * (codeCache.ts), exporting the dependency's version beside what it copies: a package of many files
 * loads in a fraction of the time (Node 20 pays per file and has no compile cache). The package in
 * node_modules stays the truth: its version is read from there first, and a copy of another version
 * is passed over; where it is not installed there is no copy to use either.
 */
export interface Copy {
  VERSION: string;
}

/** The copy `file` in `dir` when it exists and copies `installed` (the version node_modules holds); else undefined. */
export function copyOf<T extends Copy>(dir: URL, file: string, installed: string): T | undefined {
  const path = fileURLToPath(new URL(file, dir));
  if (!existsSync(path)) return undefined;
  const copy = loadWithCodeCache(path).exports as T;
  return copy.VERSION === installed ? copy : undefined;
}

/**
 * esbuild's options for a copy: `source` (CommonJS that requires what is copied and exports it with
 * `VERSION`) bundled into `outfile`, names kept (errors are judged by their class name), whitespace
 * dropped. A build step passes them to esbuild's `build`, then `cacheCopy`.
 */
export function copyBuildOptions(source: string, outfile: URL, root: URL) {
  return {
    stdin: { contents: source, resolveDir: fileURLToPath(root), loader: 'js' as const },
    outfile: fileURLToPath(outfile),
    bundle: true,
    format: 'cjs' as const,
    platform: 'node' as const,
    target: 'node20',
    keepNames: true,
    minifyWhitespace: true,
    logLevel: 'silent' as const,
  };
}

/** Loads a copy just built, lets `exercise` use it as a run would (what that compiles goes in the cache), and writes its code cache. */
export function cacheCopy(outfile: URL, exercise: (exports: unknown) => void): void {
  const loaded = loadWithCodeCache(fileURLToPath(outfile));
  exercise(loaded.exports);
  loaded.writeCache();
}
