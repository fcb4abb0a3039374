import { buildRegistry, type Check } from '#harness/checks/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import { loadShareOf, type Selection } from './runConfig.ts';

export interface Planned {
  check: Check;
  model: string;
}

/** Share i of n of the planned (check, model) pairs, by position in a stable order. */
export function shardOf(plan: readonly Planned[], shard: { index: number; count: number } | undefined): Planned[] {
  if (!shard) return [...plan];
  const sorted = [...plan].sort((a, b) => `${a.check.id}|${a.model}`.localeCompare(`${b.check.id}|${b.model}`));
  return sorted.filter((_, i) => i % shard.count === shard.index - 1);
}

/**
 * The (check, model) pairs a run runs: of one area (a suite file's share), or of every area in the
 * registry's order (what the CLI counts and reports as not run). Each area is sharded on its own, so
 * a suite file can plan its share without knowing the others.
 */
export function planRun(spec: Spec, run: Selection, area?: string): Planned[] {
  const registry = buildRegistry(spec);
  const areas = area === undefined ? registry.areas() : [area];
  // Checks judged against the harness as a gateway's upstream run only where there is one; the load phase's only with --load.
  const load = loadShareOf(run) > 0;
  const judgeable = (p: Planned) => (p.check.upstream !== true || run.upstream !== undefined) && (p.check.phase !== 'load' || load);
  return areas.flatMap((a) => shardOf(registry.plan(spec, run.models, a, { ...(run.only ? { only: run.only } : {}), ...(run.skip ? { skip: run.skip } : {}), ...(run.clients ? { clients: run.clients } : {}) }).filter(judgeable), run.shard));
}

/**
 * A phase of a run's plan, run one after another: `at-rest`, every check but the load phase's (a
 * property check's coverage phase among them: the classes it sends are its own), in one queue; then
 * `load`, per model the load phase drives (loadModelsOf), its checks on that model (this shard's
 * share; none where every one is in another shard's, and the phase is still driven).
 */
export type RunPhase = { kind: 'at-rest'; checks: Planned[] } | { kind: 'load'; model: string; checks: Planned[] };

/** The run's plan (planRun), as the phases it is run in, in order. */
export function planPhases(spec: Spec, run: Selection): RunPhase[] {
  const planned = planRun(spec, run);
  const loads: RunPhase[] = loadModelsOf(spec, run).map((model) => ({ kind: 'load', model, checks: planned.filter((p) => p.check.phase === 'load' && p.model === model) }));
  return [{ kind: 'at-rest', checks: planned.filter((p) => p.check.phase !== 'load') }, ...loads];
}

/**
 * The models the load phase drives: those the whole run (every shard) judges a load check of, so
 * each shard drives its share of the load on them whichever of the checks it holds itself.
 */
export function loadModelsOf(spec: Spec, run: Selection): string[] {
  if (loadShareOf(run) === 0) return [];
  const { shard: _all, ...whole } = run;
  return [...new Set(planRun(spec, whole, 'load').map((p) => p.model))];
}
