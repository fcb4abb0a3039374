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

/** esbuild's `build`, handed in by a build step: the run never loads esbuild (a dev dependency). */
type Build = (options: ReturnType<typeof copyBuildOptions>) => Promise<unknown>;

/**
 * Writes a copy beside the bundle: `source` (CommonJS that requires what is copied and exports it
 * with `VERSION`) bundled into `outfile` by `build`, then loaded, used by `exercise` as a run would
 * use it (what that compiles goes in the cache), and its code cache written. Undefined when written;
 * else why not, for the build to say (the run then loads node_modules).
 */
export async function writeCopy(build: Build, source: string, outfile: URL, root: URL, exercise: (exports: unknown) => void): Promise<string | undefined> {
  try {
    await build(copyBuildOptions(source, outfile, root));
    const loaded = loadWithCodeCache(fileURLToPath(outfile));
    exercise(loaded.exports);
    loaded.writeCache();
    return undefined;
  } catch (err) {
    return String((err as Error).message ?? err).split('\n')[0];
  }
}

/** esbuild's options for a copy: names kept (errors are judged by their class name), whitespace dropped. */
function copyBuildOptions(source: string, outfile: URL, root: URL) {
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
