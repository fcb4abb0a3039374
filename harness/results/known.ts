import type { CheckResult } from '#harness/core/outcome.ts';
import { globMatcher } from '#harness/core/glob.ts';
import { isFailing } from './failing.ts';
import { targetKey } from './baseline.ts';
import type { KnownEntry, KnownPolicy, RunRecord } from './runRecord.ts';
import { wilsonInterval } from './wilson.ts';

export type { KnownEntry, KnownPolicy } from './runRecord.ts';

/** Whether `entry` is about this result's check and model (and, given one, target). */
export function entryCovers(entry: KnownEntry, r: Pick<CheckResult, 'checkId' | 'model'>, target?: Pick<RunRecord['target'], 'kind' | 'baseUrl'>): boolean {
  const checkMatches = globMatcher(entry.check, true)(r.checkId);
  const targetMatches = target === undefined || entry.baseUrl === undefined || entry.baseUrl.replace(/\/+$/, '') === targetKey(target).replace(/\/+$/, '');
  return checkMatches && (entry.model === undefined || entry.model === r.model) && targetMatches;
}

/** Whether the entry's `until` is before the run (a date is good through its whole day, UTC). */
const isExpired = (entry: KnownEntry, at: string): boolean => entry.until !== undefined && `${entry.until}T23:59:59.999Z` < at;

/** The causes a failing result failed for: its failures' keys, or its error's reason (what an entry's `causes` lists). */
export function causesFailedFor(r: CheckResult): string[] {
  if (r.verdict === 'error') return [r.reason ?? 'error'];
  return [...new Set((r.failures ?? []).map((f) => f.key ?? f.message))];
}

export type KnownStanding = { counts: 'known'; why: string } | { counts: 'gates'; why: string } | undefined;

/**
 * How a failing result stands against the known failures: `known` when an entry covers it, is not
 * expired and (naming causes) knows every cause it failed for; `gates` when the entry covering it
 * expired or it fails for a cause the entry does not know (a different failure is a new failure);
 * undefined when no entry covers it.
 */
export function knownStanding(r: CheckResult, options: { known?: KnownPolicy }): KnownStanding {
  const policy = options.known;
  if (policy === undefined || !isFailing(r.verdict)) return undefined;
  const entry = policy.entries.find((e) => entryCovers(e, r));
  if (entry === undefined) return undefined;
  if (entry.passRate !== undefined) return byPassRate(r, entry);
  if (entry.expired) return { counts: 'gates', why: `fails the run: known until ${entry.until}, which has passed (${entry.at}): fix it, or give the entry a new date` };
  const now = causesFailedFor(r);
  const unknown = entry.causes === undefined ? [] : now.filter((c) => !entry.causes!.includes(c));
  if (unknown.length > 0) return { counts: 'gates', why: `fails the run: known for ${entry.causes!.join('; ')} (${entry.at}), but it fails now for ${unknown.join('; ')}` };
  return { counts: 'known', why: `does not fail the run: known, ${entry.reason} (${entry.at})` };
}

/**
 * A check known to be flaky: known while the pass rate seen could be the expected one, that is
 * while the expected rate is within the Wilson 95% interval's reach (its upper bound is not below it);
 * a rate significantly below the expected one fails the run.
 */
function byPassRate(r: CheckResult, entry: KnownEntry): KnownStanding {
  const runs = r.repeat?.runs ?? 1;
  const passes = r.repeat?.passes ?? 0;
  const { high } = wilsonInterval(passes, runs);
  const seen = `${passes} of ${runs} runs passed`;
  if (entry.expired) return { counts: 'gates', why: `fails the run: known until ${entry.until}, which has passed (${entry.at})` };
  if (high < entry.passRate!) return { counts: 'gates', why: `fails the run: ${seen}, significantly below the expected pass rate ${entry.passRate} (Wilson 95% interval up to ${high.toFixed(2)}; ${entry.at})` };
  return { counts: 'known', why: `does not fail the run: known flaky, ${entry.reason}; ${seen}, consistent with the expected pass rate ${entry.passRate} (${entry.at})` };
}

/** Entries of a cell whose checks ran and none failed: fixed, so the entry should go. */
export function staleEntries(record: Pick<RunRecord, 'results'> & { options: { known?: KnownPolicy } }): KnownEntry[] {
  const policy = record.options.known;
  if (policy === undefined) return [];
  return policy.entries.filter((e) => {
    const covered = record.results.filter((r) => entryCovers(e, r));
    return covered.length > 0 && covered.every((r) => r.verdict === 'pass');
  });
}

/** The records with the known failures of their own cell in their policy (gate.ts reads them there). */
export function withKnown(records: readonly RunRecord[], known: { source: string; entries: readonly KnownEntry[]; strict: boolean }): RunRecord[] {
  return records.map((r) => {
    const entries = known.entries.filter((e) => r.results.some((x) => entryCovers(e, x, r.target))).map((e) => (isExpired(e, r.startedAt) ? { ...e, expired: true as const } : e));
    return { ...r, options: { ...r.options, known: { source: known.source, entries, ...(known.strict ? { strict: true } : {}) } } };
  });
}
