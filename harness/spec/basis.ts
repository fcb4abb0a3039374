import type { Basis, Strength } from './model.ts';

/** How a basis reads in a report: `stated`, `entailed from “…”`, `advised`, `unspecified`. */
export function basisText(basis: Basis): string {
  return typeof basis === 'string' ? basis : `entailed from “${basis.entailed}”`;
}

/** The basis an entry of a strength has when the text states it, advises it, or leaves it open. */
export function plainBasis(strength: Strength): Basis {
  return strength === 'must' ? 'stated' : strength === 'should' ? 'advised' : 'unspecified';
}
