import type { Failure } from '#harness/core/outcome.ts';
import type { CheckOutcome } from '../context.ts';
import { defaultModelOnly, defineCheck, type Check } from '../define.ts';
import { inconclusive } from '../support/cooperation.ts';
import { outcomeOf } from '../support/outcome.ts';
import type { Pair } from './pair.ts';

/** A gateway check (checks.ts, messages.ts): judged on the default model, against the harness as the upstream. */
export function gatewayCheck(check: Omit<Check, 'area' | 'appliesTo' | 'upstream'>): Check {
  return defineCheck({ ...check, area: 'gateway', appliesTo: defaultModelOnly, upstream: true });
}

/** What one pair (one request through the gateway, named) showed: its failures, notes, and whether it compared anything. */
export type PairResult = { name: string; failures: Failure[]; notes: string[]; compared: boolean };

/** Outcomes over several pairs: failures, else a pass naming what was compared, or inconclusive when nothing was. */
export function over(results: readonly PairResult[], what: string): CheckOutcome {
  const failures = results.flatMap((r) => r.failures);
  if (failures.length > 0) return outcomeOf(failures);
  const compared = results.filter((r) => r.compared);
  const notes = results.flatMap((r) => r.notes.map((n) => `${r.name}: ${n}`));
  if (compared.length === 0) return inconclusive(`nothing to compare: ${notes.join('; ') || 'no answer reached both sides'}`);
  return { verdict: 'pass', note: `${what} on ${compared.map((r) => r.name).join(', ')}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`, cases: compared.length };
}

/** A pair with something of the upstream's to compare, or why not (the gateway asked the upstream nothing). */
export function judged(p: Pair | { why: string }): { pair: Pair } | { why: string } {
  if ('why' in p) return p;
  if (p.upstream.length === 0) return { why: `the gateway answered HTTP ${p.res.status} without asking the upstream (a refusal of its own, or a cache), so nothing of the upstream's reached the client to compare` };
  return { pair: p };
}

/** Whether a status is of the class starting at `lo` (400: a 4xx). */
export const isStatus = (status: number, lo: number): boolean => status >= lo && status < lo + 100;

/** Whether the client was told the upstream's status: the same one, or a 5xx for a 5xx (the same cause: not the client's). */
export const statusPassedOn = (got: number, sent: number): boolean => got === sent || (isStatus(got, 500) && isStatus(sent, 500));
