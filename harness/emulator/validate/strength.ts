import type { Strength } from '#harness/spec/model.ts';

/**
 * The emulator refuses only what the description states. A field or constraint whose strength, its
 * own or inherited from an enclosing field, is not `must` (`should`, `unspecified`: the messages
 * format's roles and content, the FIM request's `response_format` and `thinking`) is not enforced by
 * field validation. Strength only weakens going down: a `must` inside an `unspecified` field is
 * `unspecified`. This is the one place that rule is written.
 */
const WEAKNESS: Readonly<Record<Strength, number>> = { must: 0, should: 1, unspecified: 2 };

export function effectiveStrength(own: Strength | undefined, inherited: Strength): Strength {
  const mine = own ?? inherited;
  return WEAKNESS[mine] >= WEAKNESS[inherited] ? mine : inherited;
}

export function isEnforced(own: Strength | undefined, inherited: Strength): boolean {
  return effectiveStrength(own, inherited) === 'must';
}
