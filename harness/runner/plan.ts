import type { Check } from '#harness/checks/index.ts';

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
