import type { Strength } from '#harness/spec/model.ts';

const WEAKNESS: Record<Strength, number> = { must: 0, should: 1, unspecified: 2 };

/** A constraint inside an advisory field is advisory: strength only weakens going down. */
export function weakest(a: Strength, b: Strength): Strength {
  return WEAKNESS[a] >= WEAKNESS[b] ? a : b;
}
