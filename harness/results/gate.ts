import type { CheckResult } from '#harness/core/outcome.ts';
import type { ExitCode, Outcome, RunRecord } from './runRecord.ts';
import { skipKindOf } from './skipKind.ts';
import { cellWords } from './baseline.ts';
import { isFailing } from './failing.ts';
import { judgingAcross, judgingOf, notJudgedWords, type Judging } from './judging.ts';
import { knownStanding, staleEntries, type KnownEntry } from './known.ts';

export type { ExitCode, Outcome } from './runRecord.ts';

/** The word every headline uses for an outcome. */
export const OUTCOME_WORD: Readonly<Record<Outcome, string>> = { pass: 'PASS', fail: 'FAIL', interrupted: 'INTERRUPTED', 'nothing-judged': 'NOTHING JUDGED' };

/**
 * How one result counts: `gates` fails the run; `known` fails as the baseline did; `tolerated` fails
 * below the gate. `why` says it in one phrase, what it does to the run said once and the severity not
 * at all: every report names the severity beside it ("**must** (fails the run)").
 */
export type CaseStanding = { counts: 'gates'; why: string } | { counts: 'known'; why: string } | { counts: 'tolerated'; why: string } | { counts: 'none' };

export interface CellGate {
  record: RunRecord;
  outcome: Outcome;
  /** Results that fail the run. */
  gating: CheckResult[];
  /** Failing results the baseline saw failing too. */
  known: CheckResult[];
  /** Failing results below the gate (should without --strict, advisory, flaky allowed, not in the baseline). */
  tolerated: CheckResult[];
  /** Known-failure entries whose checks all passed: fixed, to be removed. */
  stale: KnownEntry[];
  /** Checks judged (pass, fail or flaky) among those the outcome rests on: the must-checks, else all. */
  judged: number;
  /** What `judged` counts: must-checks, or every check in a cell that has none. */
  what: 'must-check' | 'check';
  /** Of those, what was not judged and why: skips by kind, errors, unsupported. */
  unjudged: Judging['notJudged'];
  /** The same counts with the leading reasons for what was not judged (judging.ts): summary.json's and report.json's `judging`. */
  judging: Judging;
  /** One sentence: why the cell has its outcome. */
  reason: string;
}

export interface GateDecision {
  outcome: Outcome;
  exitCode: ExitCode;
  cells: CellGate[];
  /** One sentence for the whole run. */
  reason: string;
}

export { isFailing };

/** How a result counts under its record's policy (see the top of this file). */
export function standingOf(r: CheckResult, options: RunRecord['options']): CaseStanding {
  if (!isFailing(r.verdict)) return { counts: 'none' };
  // A known failure (svc-conformance.known.yaml) is judged by its entry, whatever its severity.
  const clientGated = r.severity === 'advisory' && r.area === 'client' && options.clientsGate === true;
  const known = knownStanding(r, options);
  if (known !== undefined && (known.counts === 'known' || r.severity === 'must' || clientGated || (r.severity === 'should' && options.strict))) return known;
  if (r.verdict === 'flaky' && options.allowFlaky === true) return { counts: 'tolerated', why: 'does not fail the run: flaky, allowed by --allow-flaky' };
  if (r.severity === 'advisory' && !clientGated) return { counts: 'tolerated', why: 'never fails the run' };
  if (r.severity === 'should' && !options.strict) return { counts: 'tolerated', why: 'fails the run only with --strict' };
  const baseline = options.baseline;
  if (baseline) {
    const before = baseline.verdicts[r.checkId];
    if (before === undefined) return { counts: 'tolerated', why: `does not fail the run: not in the baseline (${baseline.source})` };
    if (isFailing(before)) return { counts: 'known', why: `does not fail the run: known, ${before} in the baseline too (${baseline.source})` };
    return { counts: 'gates', why: `fails the run: a regression, ${before} in the baseline (${baseline.source}), ${r.verdict} now` };
  }
  const gated = clientGated ? ' (a client check, with --clients-gate)' : '';
  return { counts: 'gates', why: r.verdict === 'error' ? `could not be judged: fails the run as a failure would${gated}` : `fails the run${gated}` };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** `1 check fails the run`, `3 checks fail the run`. */
const failingTheRun = (n: number) => `${plural(n, 'check')} ${n === 1 ? 'fails' : 'fail'} the run`;

/** The gate of one cell (one record). */
export function cellGate(record: RunRecord): CellGate {
  const gating: CheckResult[] = [];
  const known: CheckResult[] = [];
  const tolerated: CheckResult[] = [];
  for (const r of record.results) {
    const s = standingOf(r, record.options);
    if (s.counts === 'gates') gating.push(r);
    else if (s.counts === 'known') known.push(r);
    else if (s.counts === 'tolerated') tolerated.push(r);
  }
  // Counted from the results, never from a record's stored `judging`: the gate decides on what was run.
  const judging = judgingOf(record.results);
  const { judged, scope: what, notJudged: unjudged } = judging;
  const stale = staleEntries(record);
  const ran = record.results.filter((r) => skipKindOf(r) !== 'interrupted').length;
  let outcome: Outcome;
  let reason: string;
  if (record.interrupted) {
    outcome = 'interrupted';
    reason = `stopped${record.interruptedBy === 'ceiling' ? ' at its time ceiling' : record.interruptedBy ? ` by ${record.interruptedBy}` : ''} after ${ran} of ${record.results.length} checks: the report is partial${gating.length > 0 ? `, and ${failingTheRun(gating.length)} already` : ''}`;
  } else if (record.endedEarly) {
    outcome = 'fail';
    reason = `${record.endedEarly.message}${gating.length > 0 ? `; ${failingTheRun(gating.length)}` : ''}`;
  } else if (record.wrongBase) {
    // The user's mistake first: what it caused is not the endpoint's; anything else failing still is.
    const own = gating.filter((r) => !record.wrongBase!.checks.includes(r.checkId));
    outcome = 'fail';
    reason = `${record.wrongBase.message}${own.length > 0 ? `; besides, ${failingTheRun(own.length)} (${countsText(own)})` : ''}`;
  } else if (gating.length > 0) {
    outcome = 'fail';
    reason = `${failingTheRun(gating.length)} (${countsText(gating)})${stale.length > 0 ? `; ${staleText(stale)}` : ''}`;
  } else if (stale.length > 0 && record.options.known?.strict) {
    outcome = 'fail';
    reason = `${staleText(stale)}, and --strict-known fails the run on them`;
  } else if (judged === 0) {
    outcome = 'nothing-judged';
    reason = `no ${what} was judged: ${notJudgedWords(judging)} of ${plural(judging.total, what)}`;
  } else {
    outcome = 'pass';
    const beside = [
      ...(known.length > 0 ? [`${plural(known.length, 'known failure')}${record.options.known ? '' : ' from the baseline'}`] : []),
      ...(stale.length > 0 ? [staleText(stale)] : []),
      ...(tolerated.length > 0 ? [`${tolerated.length} below the gate (${countsText(tolerated)})`] : []),
      ...(judged < judging.total ? [`not judged: ${notJudgedWords(judging)}`] : []),
    ];
    reason = `${judged} of ${plural(judging.total, what)} judged, and every one held${beside.length > 0 ? `; ${beside.join('; ')}` : ''}`;
  }
  return { record, outcome, gating, known, tolerated, stale, judged, what, unjudged, judging, reason };
}

/** `2 known-failure entries are stale (their checks pass now: remove them): a.b.c (file:3), ...`. */
function staleText(stale: readonly KnownEntry[]): string {
  return `${plural(stale.length, 'known-failure entry', 'known-failure entries')} ${stale.length === 1 ? 'is' : 'are'} stale (the check passes now: remove ${stale.length === 1 ? 'it' : 'them'}): ${stale.map((e) => `${e.check} (${e.at})`).join(', ')}`;
}

/** `2 must failures, 1 error, 1 flaky`: failing results by what they are. */
function countsText(results: readonly CheckResult[]): string {
  const n = (p: (r: CheckResult) => boolean) => results.filter(p).length;
  const parts: string[] = [];
  for (const sev of ['must', 'should', 'advisory'] as const) {
    const k = n((r) => r.verdict === 'fail' && r.severity === sev);
    if (k > 0) parts.push(plural(k, `${sev} failure`));
  }
  const errors = n((r) => r.verdict === 'error');
  if (errors > 0) parts.push(plural(errors, 'error'));
  const flaky = n((r) => r.verdict === 'flaky');
  if (flaky > 0) parts.push(`${flaky} flaky`);
  return parts.join(', ');
}

const RANK: readonly Outcome[] = ['interrupted', 'fail', 'nothing-judged', 'pass'];

/**
 * THE decision of whether a run passed, written once. The exit code, summary.json, every report's
 * headline, the JUnit and `diff` all read it, so they cannot disagree. Its whole policy travels in
 * each record (`options.strict`, `options.allowFlaky`, `options.clientsGate`, `options.baseline`, `interrupted`,
 * `endedEarly`): a saved report.json is judged again exactly as its run was.
 *
 * A result that failed (verdict fail, error or flaky):
 * - `must` fails the run; `should` only with `strict`; `advisory` never (the description leaves it open),
 *   except a client check (`client.*`) with `clientsGate` (--clients-gate: a user who gates on the
 *   clients they ship asks for it);
 * - `error` (the check could not be judged: refused connection, stall, unreadable bytes, a harness
 *   bug) counts as a failure of its severity: a CI gate must not pass a dead endpoint;
 * - `flaky` (passed and failed over `--repeat N`) counts as a failure of its severity, unless
 *   `allowFlaky`: then it is tolerated (still reported);
 * - with a baseline, only a regression fails the run: a check the baseline judged and did not see
 *   failing (pass, skip, unsupported there). One failing there too is `known`; one the baseline never
 *   ran is tolerated as `not in the baseline` (a newer harness's check does not break an old gate).
 *
 * Over every cell of a run: its outcome is the most telling of its cells'.
 */
export function gate(records: readonly RunRecord[]): GateDecision {
  const cells = records.map(cellGate);
  if (cells.length === 0) return { outcome: 'nothing-judged', exitCode: 1, cells, reason: 'no cell was run' };
  const outcome = RANK.find((o) => cells.some((c) => c.outcome === o))!;
  const exitCode: ExitCode = outcome === 'pass' ? 0 : outcome === 'interrupted' ? (records.some((r) => r.interruptedBy === 'SIGTERM') ? 143 : 130) : 1;
  const deciding = cells.filter((c) => c.outcome === outcome);
  let reason: string;
  if (cells.length === 1) reason = cells[0]!.reason;
  else if (outcome === 'pass') {
    // Says what it counts: the must-checks the outcome rests on, not every check that passed; and
    // why the rest were not judged, one premise on several models being one reason.
    const all = judgingAcross(records.map((r) => r.results));
    reason = `every cell passed: ${plural(all.judged, all.scope)} judged across ${cells.length} cells, and every one held${cells.some((c) => c.known.length + c.tolerated.length > 0) ? ' (each cell\'s report lists what failed below the gate)' : ''}${all.judged < all.total ? `; not judged: ${notJudgedWords(all)}` : ''}`;
  } else reason = deciding.map((c) => `${cellWords(c.record)}: ${c.reason}`).join('; ');
  return { outcome, exitCode, cells, reason };
}

/** The records with their policy replaced where `policy` says (merge --strict, diff's baseline). */
export function withPolicy(records: readonly RunRecord[], policy: Partial<Pick<RunRecord['options'], 'strict' | 'allowFlaky'>>): RunRecord[] {
  return records.map((r) => ({ ...r, options: { ...r.options, ...policy } }));
}
