import type { Expectation, Rule, Spec } from '#harness/spec/model.ts';
import type { Refusal } from '../http/refusal.ts';

/**
 * Which status a refusal carries, and the envelope it is written in, all read from the spec.
 * Nothing here holds a status of its own: a spec change moves the emulator with it, and a rule the
 * emulator relies on that disappears from the spec is an error, not a silent change.
 */

/** The kinds of problem field validation finds, each answered with the status of one rule. */
export type ProblemKind = 'missing' | 'wrong_type' | 'empty' | 'out_of_range';

export const RULE_FOR_PROBLEM: Readonly<Record<ProblemKind, string>> = {
  /** "A request missing a required field fails with 400." */
  missing: 'chat.required-field.missing',
  /** "A field of the wrong type fails with 400." */
  wrong_type: 'chat.wrong-type',
  /** "`messages` must be a non-empty array, or the call fails with 400." */
  empty: 'chat.messages.non-empty',
  /** "A value outside a field's stated bounds or allowed values is refused." */
  out_of_range: 'bound.out-of-range',
};

/**
 * The row of the error table a refusal whose status the spec leaves open (`status_unspecified`)
 * answers with. The description does not give these statuses (a prefix request outside the beta
 * base, fill-in-the-middle outside the beta base); "Bad request" is the emulator's choice, made here
 * and nowhere else. The row is looked up in spec.errors.statuses, so the table must still list it.
 */
const UNSPECIFIED_STATUS_ROW = '400';

export function unspecifiedStatus(spec: Spec): number {
  if (!spec.errors.statuses[UNSPECIFIED_STATUS_ROW]) {
    throw new Error(`emulator validation answers unspecified statuses with the ${UNSPECIFIED_STATUS_ROW} row of spec.errors.statuses, which the spec no longer lists`);
  }
  return Number(UNSPECIFIED_STATUS_ROW);
}

export function findRule(spec: Spec, id: string): Rule {
  const rule = spec.rules.find((r) => r.id === id);
  if (!rule) throw new Error(`emulator validation reads its status from rule \`${id}\`, which the spec no longer has`);
  return rule;
}

/** Whether an expectation is a refusal (a status, a choice of statuses, or an error), not an acceptance or effect. */
export function isRefusalExpectation(expect: Expectation): boolean {
  if (expect.accepted === true) return false;
  return expect.status !== undefined || (expect.status_any_of?.length ?? 0) > 0 || expect.error === true || expect.status_unspecified === true;
}

/**
 * The status a refusal rule answers with: its `status`, else the FIRST of its `status_any_of`
 * (where the description allows several, the emulator answers with the one the spec lists first),
 * else, for `status_unspecified`, the row chosen above.
 */
export function expectedStatus(spec: Spec, rule: Rule): number {
  const { expect } = rule;
  const status = expect.status ?? expect.status_any_of?.[0];
  if (status !== undefined) return status;
  if (expect.status_unspecified === true || expect.error === true) return unspecifiedStatus(spec);
  throw new Error(`rule \`${rule.id}\` expects no refusal (${JSON.stringify(expect)}), so it has no status`);
}

/** `expect.status ?? expect.status_any_of[0]` of the rule with this id (see expectedStatus). */
export function ruleStatus(spec: Spec, id: string): number {
  return expectedStatus(spec, findRule(spec, id));
}

/**
 * The error `type` of a refused request: the sample type of the spec's error envelope
 * (`invalid_request_error`). The spec shows no `code` for request errors ("Other values of
 * error.code: not shown"), so the code repeats the type.
 */
export function requestErrorType(spec: Spec): string {
  const type = spec.errors.envelope.sample?.type;
  if (typeof type !== 'string') throw new Error('emulator validation reads the error type from spec.errors.envelope.sample.type, which is not a string');
  return type;
}

export function refusal(spec: Spec, status: number, message: string, param: string | null): Refusal {
  const type = requestErrorType(spec);
  return { status, message, type, code: type, param };
}

export function problemRefusal(spec: Spec, kind: ProblemKind, message: string, param: string | null): Refusal {
  return refusal(spec, ruleStatus(spec, RULE_FOR_PROBLEM[kind]), message, param);
}
