import type { Severity } from '#harness/core/outcome.ts';
import { SpecInvalidError } from '#harness/core/errors/SpecInvalidError.ts';
import { plainBasis } from '#harness/spec/basis.ts';
import type { Basis, Model, Strength } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome } from './context.ts';

export interface Check {
  /** `<area>.<subject>.<expectation>`, lowercase kebab segments; never changes meaning. */
  id: string;
  title: string;
  area: string;
  severity: Severity;
  /** Why the check has its severity: what the description states, entails, advises or leaves open. */
  basis: Basis;
  /** Spec entries this check enforces (`rules.chat.messages.non-empty`, `objects.usage`...). */
  specRefs: string[];
  /** Which models of the spec the check runs on; it runs once per such model. */
  appliesTo(model: Model, id: string): boolean;
  /**
   * How many round trips the check waits on one after another (a premise, then its verdict; a
   * property's runs: 'runs', judged AHEAD at a time, runProperty.ts), when more than one: the
   * runner starts long chains first, so a run's length is not a long chain started last. A test
   * holds it to what the check sends.
   */
  chain?: number | 'runs';
  /**
   * `status`: the verdict rests on the status of an answer alone (a route served, a value or a
   * request accepted), as the description words the rule; an answer with no content can pass it,
   * and no other check. The walk of the catalogue over such answers holds every check to this.
   */
  judges?: 'status';
  /**
   * Judged against the harness as the upstream of a gateway (checks/gateway/): planned only in a run
   * that has one (`run --upstream-port`), never a skip in every other run.
   */
  upstream?: true;
  /**
   * `load`: a check of the load phase (checks/load/): planned only in a run with `--load N`, run
   * once every other check has ended, and judging a 429 or 503 as it came (never as "not now").
   */
  phase?: 'load';
  run(ctx: CheckContext): Promise<CheckOutcome>;
}

/** The description's strength, as a check's severity: what it leaves unspecified is advisory. */
export function severityOf(strength: Strength): Severity {
  return strength === 'unspecified' ? 'advisory' : strength;
}

/**
 * A check's severity and basis, from the spec entry it enforces; an entry that leaves its strength
 * to its container (a field of an object) has `fallback`, on the basis that strength goes with.
 */
export function gradeOf(entry: { strength?: Strength; basis?: Basis }, fallback: Strength = 'must'): { severity: Severity; basis: Basis } {
  const strength = entry.strength ?? fallback;
  return { severity: severityOf(strength), basis: entry.basis ?? plainBasis(strength) };
}

/**
 * The spec entry a check is built on, or a load error naming it: a check whose entry is missing
 * cannot know its strength, and must never become a silent must (or a silent advisory).
 */
export function entryFor<T>(entry: T | undefined, checkId: string, where: string): T {
  if (entry === undefined) throw new SpecInvalidError([{ file: 'spec/', line: 0, column: 0, path: where, message: `check ${checkId} is built on this entry, which the spec lacks: restore it, or remove the check` }]);
  return entry;
}

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*){2,}$/;

export const currentModels = (m: Model) => m.kind === 'current';
export const legacyAliases = (m: Model) => m.kind === 'legacy_alias';
/** Current models that support tool calls (models.yaml `tools`). */
export const supportsTools = (m: Model) => m.kind === 'current' && !!m.tools && 'supported' in m.tools && m.tools.supported;
/** Current models offering fill-in-the-middle (models.yaml `features`). */
export const fimModels = (m: Model) => m.kind === 'current' && Array.isArray(m.features) && m.features.includes('fim');
/** Current models served in the messages format (models.yaml `formats`). */
export const messagesModels = (m: Model) => m.kind === 'current' && Array.isArray(m.formats) && m.formats.includes('messages');
/** Checks of the account or the service as a whole run once, on the spec's default model. */
export const defaultModelOnly = (m: Model) => m.kind === 'current' && m.default;

/** A check as it is declared: its area is its id's first segment, so it is not written again. */
export type CheckDeclaration = Omit<Check, 'area'>;

export function defineCheck(check: CheckDeclaration): Check {
  if (!ID.test(check.id)) throw new Error(`check id \`${check.id}\` is not <area>.<subject>.<expectation> in lowercase kebab segments`);
  return { ...check, area: check.id.split('.')[0]! };
}
