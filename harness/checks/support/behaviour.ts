import type { Behaviour, Model } from '#harness/spec/model.ts';

/**
 * A behaviour entry a check enforces, by key. A check id names its entry for good, so an entry the
 * spec lost is an error when the catalogue is built, not a check that silently stops running.
 */
export function behaviourOf(table: Record<string, Behaviour>, key: string, where: string): Behaviour {
  const entry = table[key];
  if (!entry) throw new Error(`spec ${where} has no entry \`${key}\`, which a check enforces`);
  return entry;
}

/** The models a behaviour binds: those it names, or of its kind; current models when it names neither. */
export function modelsOf(b: Behaviour): (m: Model, id: string) => boolean {
  const ids = b.models?.ids;
  if (ids) return (_m, id) => ids.includes(id);
  const kind = b.models?.kind ?? 'current';
  return (m) => m.kind === kind;
}
