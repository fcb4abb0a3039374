import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { bundledDigest } from '#harness/spec/specCache.ts';
import type { Spec } from '#harness/spec/model.ts';

/**
 * Facts the build derives from the shipped spec once and writes beside the bundle as JSON, under
 * the digest of the spec files (spec/specCache.ts), as it writes the precompiled validators: a run
 * from the bundle reads them rather than deriving them again. They serve only a spec cached under
 * that digest: for a spec loaded from its files, another spec, or no file, the caller derives.
 */
interface DerivedFile<T> {
  digest: string;
  byKey: Record<string, T>;
}

const read = new Map<string, DerivedFile<unknown> | null>();

/** The facts `name` the build wrote in `dir` for this spec, by key; undefined: derive them. */
export function readDerived<T>(name: string, spec: Spec, dir: URL): Readonly<Record<string, T>> | undefined {
  const digest = bundledDigest(spec);
  if (digest === undefined) return undefined;
  const file = new URL(name, dir);
  let written = read.get(file.href);
  if (written === undefined) {
    written = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DerivedFile<unknown>) : null;
    read.set(file.href, written);
  }
  return written?.digest === digest ? (written.byKey as Record<string, T>) : undefined;
}

/** Writes the facts `name` of the spec cached under `digest` into `dir`. */
export function writeDerived<T>(name: string, digest: string, byKey: Record<string, T>, dir: URL): void {
  writeFileSync(new URL(name, dir), `${JSON.stringify({ digest, byKey } satisfies DerivedFile<T>, null, 1)}\n`);
}
