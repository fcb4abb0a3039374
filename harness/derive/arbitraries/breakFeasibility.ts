import type { Spec } from '#harness/spec/model.ts';
import { readDerived, writeDerived } from '../derivedBeside.ts';
import { optionsKey, type FieldOptions } from './_internals/builders/fieldValues.ts';

/**
 * Which breaks of a chat request can be drawn alone for a model (invalidChatRequest's feasibility
 * test: ten draws of each, a tenth of a loopback run), computed by the build for every model of the
 * shipped spec and written beside the bundle under the spec's digest, as the precompiled validators
 * are. A spec loaded from its files, a model map, or a file of another spec: computed as before.
 */
export const FEASIBILITY_FILE = 'break-feasibility.json';

/** Where the build writes it: beside this module, once bundled (none beside the sources). */
const BESIDE = new URL('./', import.meta.url);

/**
 * What the build wrote in `dir` for these options, one flag per break; undefined: test each break.
 * Written by optionsKey, one character per break in the arbitrary's order, `1` when it can be drawn alone.
 */
export function cachedFeasibility(spec: Spec, opts: FieldOptions, breaks: number, dir: URL = BESIDE): boolean[] | undefined {
  const flags = readDerived<string>(FEASIBILITY_FILE, spec, dir)?.[optionsKey(opts)];
  // A count that differs is a file of other sources than these: test each break.
  return flags?.length === breaks ? [...flags].map((f) => f === '1') : undefined;
}

/** Writes the flags of each options' breaks for the spec cached under `digest` into `dir`. */
export function writeFeasibility(digest: string, byKey: Record<string, boolean[]>, dir: URL): void {
  writeDerived(FEASIBILITY_FILE, digest, Object.fromEntries(Object.entries(byKey).map(([k, flags]) => [k, flags.map((f) => (f ? '1' : '0')).join('')])), dir);
}
