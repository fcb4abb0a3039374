// Test support: the emptiness walk. Each place the spec needs filled (emptyPlaces.ts) is taken away
// from the emulator's answers by a mutating proxy, and the must checks that judge that place's spec
// entry run against it: some must fail at must.
import { buildRegistry } from '#harness/checks/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import { placeName, takeAway, type Place } from './emptyPlaces.ts';
import { mustFailures, runMutated, type MutatedCase } from './mutatedRuns.ts';

export interface WalkOptions {
  /** The spec the emulator serves and the places come from. */
  spec: Spec;
  places: readonly Place[];
  /** The spec directory the harness judges with (`--spec`); default: the shipped one. */
  judgeWith?: string;
  now: string;
  concurrency?: number;
}

/** What one place's run showed: the checks run, how many answers the proxy changed, those that failed at must. */
export interface WalkResult {
  place: Place;
  name: string;
  model: string;
  checks: readonly string[];
  changed: number;
  caught: string[];
}

/** Whether a check's spec refs cover an entry: the entry itself, or one containing it. */
const covers = (refs: readonly string[], entry: string) => refs.some((r) => r === entry || entry.startsWith(`${r}.`));

/**
 * The must checks that judge a place (their spec refs cover its entry) on the first current model
 * any of them runs on. Checks of a gateway's upstream are not planned here.
 */
export function judgesOf(spec: Spec, place: Place): { model: string; checks: string[] } | undefined {
  const chosen = buildRegistry(spec).all().filter((c) => c.severity === 'must' && c.upstream !== true && covers(c.specRefs, place.entry));
  const model = Object.keys(spec.models).find((id) => spec.models[id]!.kind === 'current' && chosen.some((c) => c.appliesTo(spec.models[id]!, id)));
  if (model === undefined) return undefined;
  return { model, checks: chosen.filter((c) => c.appliesTo(spec.models[model]!, model)).map((c) => c.id) };
}

/** Walks every place: one run each, behind one proxy and one emulator. A place no check judges is returned with no run. */
export async function walkEmptiness(options: WalkOptions): Promise<WalkResult[]> {
  const judging = options.judgeWith === undefined ? options.spec : loadSpec(options.judgeWith).spec;
  const judged = options.places.map((place) => ({ place, judges: judgesOf(judging, place) }));
  const cases: MutatedCase[] = judged.flatMap(({ place, judges }) => (judges ? [{ mutator: { object: place.object, rewrite: (a: unknown) => takeAway(a, place) }, ...judges }] : []));
  const runs = await runMutated({ spec: options.spec, cases, now: options.now, ...(options.judgeWith === undefined ? {} : { judgeWith: options.judgeWith }), ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }) });
  let at = 0;
  return judged.map(({ place, judges }) => {
    const base = { place, name: placeName(place) };
    if (!judges) return { ...base, model: '', checks: [], changed: 0, caught: [] };
    const run = runs[at++]!;
    return { ...base, ...judges, changed: run.changed, caught: mustFailures(run).map((r) => r.checkId) };
  });
}
