import type { Failure, SkipKind } from '#harness/core/outcome.ts';
import type { CheckOutcome, CheckResponse } from '../context.ts';
import type { JsonRead } from './body.ts';

export const pass = (note?: string): CheckOutcome => (note === undefined ? { verdict: 'pass' } : { verdict: 'pass', note });
/** A skip of its kind (core/outcome.ts SkipKind): by default the check does not apply here. */
export const skip = (reason: string, kind: SkipKind = 'not-applicable'): CheckOutcome => ({ verdict: 'skip', reason, kind });
export const unsupported = (reason: string): CheckOutcome => ({ verdict: 'unsupported', reason });

/** A failure with the exchange as evidence (the runner adds the curl reproducer from it). */
export function failure(message: string, res?: CheckResponse, extra: Partial<Failure> = {}): Failure {
  return { message, ...extra, ...(res ? { evidence: res.exchange } : {}) };
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
