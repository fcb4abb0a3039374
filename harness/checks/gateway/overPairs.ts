import type { Failure } from '#harness/core/outcome.ts';
import type { CheckOutcome, CheckRequest } from '../context.ts';
import { inconclusive } from '../support/cooperation.ts';
import { outcomeOf } from '../support/outcome.ts';
import type { Judged } from './pair.ts';

/** What one pair (one request through the gateway, named) showed: its failures, notes, and whether it compared anything. */
export type PairResult = { name: string; failures: Failure[]; notes: string[]; compared: boolean };

/** What a pair showed, before it is named. */
export type Judgement = Omit<PairResult, 'name'>;

/** A pair that compared nothing, and why. */
export const noted = (why: string): Judgement => ({ failures: [], notes: [why], compared: false });

/**
 * Each named request through the gateway at once: judged by `judge` where `pairOf` gives a pair,
 * else noted with why not. The one loop of every check judging several pairs.
 */
export function eachPair<P extends object>(cases: readonly { name: string; request: CheckRequest }[], pairOf: (request: CheckRequest) => Promise<P | { why: string }>, judge: (p: P) => Judgement): Promise<PairResult[]> {
  return Promise.all(cases.map(async ({ name, request }): Promise<PairResult> => {
    const p = await pairOf(request);
    return { name, ...('why' in p ? noted(p.why) : judge(p as P)) };
  }));
}

/** Why a pair has no answer to compare (the client's or the upstream's not a 200), or undefined. */
export function unanswered({ pair, up }: Judged, what: string): string | undefined {
  return up.response.status !== 200 || pair.res.status !== 200 ? `answered HTTP ${pair.res.status} (the upstream ${up.response.status}): no ${what} to compare` : undefined;
}

/** Outcomes over several pairs: failures, else a pass naming what was compared, or inconclusive when nothing was. */
export function over(results: readonly PairResult[], what: string): CheckOutcome {
  const failures = results.flatMap((r) => r.failures);
  if (failures.length > 0) return outcomeOf(failures);
  const compared = results.filter((r) => r.compared);
  const notes = results.flatMap((r) => r.notes.map((n) => `${r.name}: ${n}`));
  if (compared.length === 0) return inconclusive(`nothing to compare: ${notes.join('; ') || 'no answer reached both sides'}`);
  return { verdict: 'pass', note: `${what} on ${compared.map((r) => r.name).join(', ')}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`, cases: compared.length };
}
