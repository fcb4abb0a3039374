import type { Defect, Failure, SkipKind } from '#harness/core/outcome.ts';
import type { Violation } from '#harness/derive/validators/index.ts';
import type { CheckOutcome, CheckResponse } from '../context.ts';
import type { JsonRead } from './body.ts';

/** `notJudged`: the cases the check could not judge (answers it could not tell apart), beside the `cases` the pass rests on. */
export const pass = (note?: string, cases?: number, notJudged?: number): CheckOutcome => ({ verdict: 'pass', ...(note === undefined ? {} : { note }), ...(cases === undefined ? {} : { cases }), ...(notJudged ? { notJudged } : {}) });
/** A skip of its kind (core/outcome.ts SkipKind): by default the check does not apply here. */
export const skip = (reason: string, kind: SkipKind = 'not-applicable'): CheckOutcome => ({ verdict: 'skip', reason, kind });
export const unsupported = (reason: string): CheckOutcome => ({ verdict: 'unsupported', reason });

/**
 * A failure with the exchange as evidence (the runner adds the curl reproducer from it). Its defect
 * is `extra.defect` when the check names one; else no complete answer is a `transport` defect, and
 * anything else a `value` in the message's words (at `extra.path`).
 */
export function failure(message: string, res?: CheckResponse, extra: Partial<Failure> = {}): Failure {
  const error = res?.exchange.error;
  const defect: Defect = extra.defect ?? (error ? { kind: 'transport', code: error.code, what: error.message } : { kind: 'value', what: message, ...(extra.path === undefined ? {} : { path: extra.path }) });
  return { message, ...extra, defect, ...(res ? { evidence: res.exchange } : {}) };
}

/** `statement`: the endpoint answered a status the rule does not give (`expected`: "400 or 422"). */
export function statusFailure(statement: string, res: CheckResponse, expected: string, extra: Partial<Failure> = {}): Failure {
  return failure(`${statement}: expected HTTP ${expected}, got ${res.status}`, res, { ...extra, defect: { kind: 'status', expected, got: res.status } });
}

/** The facts of a failure that is an answer's status: `expected` is what the rule gives ("200" unless said). */
export const statusDefect = (res: CheckResponse, expected = '200'): Partial<Failure> => ({ defect: { kind: 'status', expected, got: res.status } });

/** A schema violation of the judged body, after `statement` when the check says what it judged. */
export function schemaFailure(v: Violation, res: CheckResponse | undefined, statement?: string, extra: Partial<Failure> = {}): Failure {
  const at = `${v.path || '/'}: ${v.message}`;
  return failure(statement === undefined ? at : `${statement}${at}`, res, { path: v.path, specRef: v.specRef, ...extra, defect: { kind: 'schema', path: v.path, keyword: v.keyword, what: v.message } });
}

export function fail(message: string, res?: CheckResponse, extra: Partial<Failure> = {}): CheckOutcome {
  return { verdict: 'fail', failures: [failure(message, res, extra)] };
}

/** Several failures found by one check, or a pass when there are none. */
export function outcomeOf(failures: Failure[]): CheckOutcome {
  return failures.length === 0 ? pass() : { verdict: 'fail', failures };
}

/**
 * A value as a message shows it: JSON, cut at `at` characters; an absent field says so, never
 * "undefined".
 */
export function shown(value: unknown, at = 80): string {
  if (value === undefined) return 'absent';
  if (typeof value === 'string') return JSON.stringify(value.length > at ? `${value.slice(0, at)}…` : value);
  const json = JSON.stringify(value) ?? String(value);
  return json.length > at ? `${json.slice(0, at)}…` : json;
}

/** What a body said, for a message about a refusal: its JSON, or why it could not be read. */
export const shownBody = (read: JsonRead): string => shown(read.ok ? read.body : read.why, 200);

/** A request the description says is answered, refused: `what` was answered `res`'s status, with its body, then `after`. */
export const notAnswered = (what: string, res: CheckResponse, read: JsonRead, after = ''): Failure => failure(`${what} was answered HTTP ${res.status}: ${shownBody(read)}${after}`, res, statusDefect(res));
