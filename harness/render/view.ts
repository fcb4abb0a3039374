/**
 * What every renderer shows the same way: the order of results, areas, the run's outcome under
 * the exit policy, durations and bodies as text. Renderers format; they do not decide.
 */
import { compareIds } from '#harness/core/compareIds.ts';
import type { CheckResult, ClassCoverage, Severity } from '#harness/core/outcome.ts';
import type { RecordedResponse } from '#harness/core/exchange.ts';
import { byCount, judgingOf, OUTCOME_WORD, standingOf, summarize, targetKey, VERDICTS, type CostEstimate, type Judging, type Outcome, type RunBudget, type RunRecord, type RunTimings, type RunTraffic, type Summary, type UnjudgedReason } from '#harness/results/index.ts';
import type { AnswerTimes } from '#harness/core/answerTimes.ts';
import type { LimitChange, LimitReason } from '#harness/core/limitChange.ts';

export { VERDICTS };

export const SEVERITIES: readonly Severity[] = ['must', 'should', 'advisory'];

/** Failures first (must before should before advisory), then errors, unsupported, skips, passes; by id within. */
export function orderedResults(results: readonly CheckResult[]): CheckResult[] {
  const rank = (r: CheckResult) => VERDICTS.indexOf(r.verdict) * 10 + SEVERITIES.indexOf(r.severity);
  return [...results].sort((a, b) => rank(a) - rank(b) || compareIds(a.checkId, b.checkId) || compareIds(a.model, b.model));
}

/** The record's areas, sorted. */
export function areasOf(results: readonly CheckResult[]): string[] {
  return [...new Set(results.map((r) => r.area))].sort();
}

/** Counts per area, areas sorted. */
export function summaryByArea(results: readonly CheckResult[]): [string, Summary][] {
  return areasOf(results).map((area) => [area, summarize(results.filter((r) => r.area === area))]);
}

export { cellGate as outcomeOf } from '#harness/results/index.ts';

const OUTCOME_ICON: Readonly<Record<Outcome, string>> = { pass: '✅', fail: '❌', interrupted: '⏹️', 'nothing-judged': '⚠️' };

/** An outcome as every headline shows it: `❌ FAIL`. */
export function outcomeHeadline(outcome: Outcome, icon = true): string {
  return icon ? `${OUTCOME_ICON[outcome]} ${OUTCOME_WORD[outcome]}` : OUTCOME_WORD[outcome];
}

/** Whether a result fails the run, as the gate (results/gate.ts) counts it under the record's policy. */
export function failsRun(r: CheckResult, options: RunRecord['options']): boolean {
  return standingOf(r, options).counts === 'gates';
}

/** `12 ms`, `1.3 s`. */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms * 10) / 10} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The run's options in words, for a report's header; `code` marks a value the user typed (Markdown quotes it). */
export function optionWords(opts: RunRecord['options'], code: (value: string) => string = (value) => value): string[] {
  return [
    opts.strict ? 'strict' : 'not strict',
    `seed ${opts.seed}`,
    plural(opts.runs, 'run'),
    ...(opts.repeat === undefined ? [] : [`repeat ${opts.repeat}${opts.allowFlaky ? ', flaky allowed' : ''}`]),
    ...(opts.only === undefined ? [] : [`only ${code(opts.only.join(','))}`]),
    ...(opts.skip === undefined ? [] : [`skip ${code(opts.skip.join(','))}`]),
    ...(opts.clients === undefined ? [] : [`clients ${opts.clients.length === 0 ? 'none' : code(opts.clients.join(','))}${opts.clientsGate ? ', gating' : ''}`]),
    ...(opts.baseline === undefined ? [] : [`baseline ${code(opts.baseline.source)}`]),
    ...(opts.shard === undefined ? [] : [`shard ${code(opts.shard)}`]),
  ];
}

/** A JSON value pretty-printed. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** The body of a response as text: pretty JSON when it parsed, else what arrived. */
export function bodyText(response: RecordedResponse): string | undefined {
  if (response.body !== undefined) return prettyJson(response.body);
  return response.text;
}

/** Cut at `max` characters, saying how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

/**
 * A cell's target as reports label it: `emulator` or `replay` for the embedded emulator and a
 * replayed recording, which listen on a new port each run (as their report folders are named), a
 * live endpoint's base URL. The record keeps the URL itself (`target.baseUrl`).
 */
export const targetLabel = (target: Pick<RunRecord['target'], 'kind' | 'baseUrl'>): string => targetKey(target);

/** One line naming the cell: `svc-v4-flash at emulator`, `svc-v4-flash at https://api.example.com`. */
export function cellName(record: RunRecord): string {
  return `${record.model} at ${targetLabel(record.target)}`;
}

/** The cost estimate made before a run and the budget it kept to, as plain sentences (none when the run had neither). */
export function costNotes(run: { estimate?: CostEstimate; budget?: RunBudget }): string[] {
  const out: string[] = [];
  const e = run.estimate;
  if (e) out.push(`Estimated before the run: ${e.expected.costUsd} USD for ${plural(e.requests, 'request')} (${e.expected.promptTokens + e.expected.completionTokens} tokens, a dry run against the embedded emulator); at most ${e.upperBound.costUsd} USD if every answer used its whole max_tokens.`);
  const b = run.budget;
  if (b) out.push(b.reached ? `Budget ${b.limitUsd} USD: reached; checks not run are skipped for budget.` : `Budget ${b.limitUsd} USD: not reached.`);
  return out;
}

/**
 * What a repeated check's runs came to, in one line: `2 of 3 runs passed · pass@1 0.6667, pass@3 1 ·
 * pass^1 0.6667, pass^3 0` (k = 1 and k = n, the two a reader compares); none for a single run.
 */
export function repeatLine(r: CheckResult): string | undefined {
  const rep = r.repeat;
  if (!rep) return undefined;
  const n = rep.passes + rep.fails;
  const ks = [...new Set(['1', String(n)])].filter((k) => rep.passAtK[k] !== undefined);
  const at = ks.map((k) => `pass@${k} ${rep.passAtK[k]}`).join(', ');
  const hat = ks.map((k) => `pass^${k} ${rep.passHatK[k]}`).join(', ');
  const judged = n === rep.runs ? `${rep.passes} of ${rep.runs} runs passed` : `${rep.passes} of ${n} judged runs passed (${rep.runs} runs)`;
  return [judged, ...(at ? [at, hat] : [])].join(' · ');
}

/** Where a run's time went, in one sentence. */
export function timingNote(t: RunTimings): string {
  return `${plural(t.checks, 'check')} in ${duration(t.wallMs)} (${t.checksPerSecond} checks/s): start-up ${duration(t.startupMs)}, requests ${duration(t.requestsMs)}, judging ${duration(t.judgingMs)}, reporting ${duration(t.reportingMs)}, other ${duration(t.otherMs)}.`;
}

/** What a traffic figure covers, said wherever it is shown: the target's whole run, not the cell's share. */
export const TRAFFIC_SCOPE = "this target's run, all models";

/**
 * "reached 16 (adaptive, started at 4, cap 64, ended at 8; came down 1 time; 4 → 32 from 800 ms to 3.1 s,
 * answers as fast as at rest (805 ms); 32 → 16 at 5.2 s, 429)", or "reached 4 (fixed at 4)".
 */
export function concurrencyNote(c: RunTraffic['concurrency']): string {
  if (!c.adaptive) return `reached ${c.reached} (fixed at ${c.max})`;
  const path = c.changes === undefined || c.changes.length === 0 ? '' : `; ${limitPathNote(c.changes, c.changesOmitted ?? 0)}`;
  return `reached ${c.reached} (adaptive, started at ${c.initial}, cap ${c.max}, ended at ${c.final}; came down ${plural(c.decreases, 'time')}${path})`;
}

/** Changes a sentence names; report.json keeps them all. */
const CHANGES_SAID = 6;

/** Where the adaptive limit went and why, change by change. */
export function limitPathNote(changes: readonly LimitChange[], omitted: number): string {
  const said = changes.slice(0, CHANGES_SAID).map((c) => {
    const when = c.atMs === c.sinceMs ? `at ${duration(c.atMs)}` : `from ${duration(c.sinceMs)} to ${duration(c.atMs)}`;
    return `${c.from} → ${c.to} ${when}, ${limitReasonNote(c.why)}`;
  });
  const rest = changes.length - said.length + omitted;
  return [...said, ...(rest > 0 ? [`${plural(rest, 'change')} more (report.json)`] : [])].join('; ');
}

function limitReasonNote(why: LimitReason): string {
  switch (why.kind) {
    case 'flat':
      return `answers as fast as at rest (${duration(why.latencyMs)})`;
    case 'waiting':
      return `refusals the run waited on (${duration(why.latencyMs)})`;
    case 'refused':
      return `answered ${why.status}`;
    case 'slower':
      return `answers slower (${duration(why.shortMs)} lately, ${duration(why.longMs)} usually)`;
    case 'overloaded':
      return `an answer took ${duration(why.latencyMs)} (fastest ${duration(why.fastestMs)})`;
    case 'silent':
      return 'no answer in time';
    case 'remaining':
      return `a rate-limit header said ${why.remaining} left`;
  }
}

/** "236 (2 retries) · concurrency: reached 16 (adaptive, ...) · served in 812 ms (...), refused in 3.2 s (...)". */
export function trafficNote(t: RunTraffic): string {
  const times = t.answerTimes ? answerTimesNote(t.answerTimes) : '';
  return `${t.requests} (${plural(t.retries, 'retry', 'retries')}) · concurrency: ${concurrencyNote(t.concurrency)}${times ? ` · ${times}` : ''}`;
}

/** "served in 812 ms (median; 95th percentile 1.1 s; 270 answers), refused in 3.2 s (...)": information, not a verdict. */
export function answerTimesNote(t: AnswerTimes): string {
  const said = (['served', 'refused'] as const).flatMap((kind) => {
    const f = t[kind];
    return f ? [`${kind} in ${duration(f.p50Ms)} (median; 95th percentile ${duration(f.p95Ms)}; ${plural(f.count, 'answer')})`] : [];
  });
  return said.join(', ');
}

/**
 * Each target's traffic once, in the order of its first record: every record of a target carries
 * the same figures. Keyed by base URL and figures, so two targets at one base URL still show apart.
 */
export function trafficByTarget(records: readonly RunRecord[]): { baseUrl: string; label: string; traffic: RunTraffic }[] {
  const seen = new Map<string, { baseUrl: string; label: string; traffic: RunTraffic }>();
  for (const r of records) if (r.traffic) seen.set(JSON.stringify([r.target.baseUrl, r.traffic]), { baseUrl: r.target.baseUrl, label: targetLabel(r.target), traffic: r.traffic });
  return [...seen.values()];
}

/** "judged 3 answers, 41 chunks, 10 cases": what the verdict rests on (a pass always has it), or undefined when the check read none. */
export function judgedLine(r: CheckResult): string | undefined {
  const j = r.judged;
  if (j === undefined) return undefined;
  const line = `judged ${[plural(j.exchanges, 'answer'), ...(j.chunks === undefined ? [] : [plural(j.chunks, 'chunk')]), ...(j.cases === undefined ? [] : [plural(j.cases, 'case')]), ...(j.notJudged === undefined ? [] : [`${j.notJudged} not judged`])].join(', ')}`;
  return j.classes === undefined ? line : `${line}; ${classesLine(j.classes)}`;
}

/** "chat_completions: 40 of 175 classes of invalid request sent, 17 by other checks, 118 not sent". */
export function classesLine(c: ClassCoverage): string {
  const elsewhere = c.elsewhere.reduce((n, e) => n + e.classes.length, 0);
  return `${c.operation}: ${c.sent} of ${plural(c.named, 'class', 'classes')} of invalid request sent, ${elsewhere} by other checks, ${c.notSent.length} not sent`;
}

/** The classes not sent, grouped by why: "why: a, b, c". */
export function notSentLines(c: ClassCoverage): string[] {
  const byWhy = new Map<string, string[]>();
  for (const n of c.notSent) byWhy.set(n.why, [...(byWhy.get(n.why) ?? []), n.class]);
  return [...byWhy].map(([why, classes]) => `${why} (${classes.length}): ${classes.join(', ')}`);
}

/** "2 attempts for 1 request", when a check's requests were retried (a 5xx asked again, a 429 waited out); undefined otherwise. */
export function attemptsLine(r: CheckResult): string | undefined {
  return r.attempts === undefined ? undefined : `${plural(r.attempts.attempts, 'attempt')} for ${plural(r.attempts.requests, 'request')}`;
}

/** "87/100 · coverage 64% (92 of 143 spec entries judged)", or what the record lacks of it. */
export function scoreLine(record: RunRecord): string {
  const score = record.score === undefined ? 'no score (nothing scored)' : `${record.score}/100`;
  const c = record.coverage;
  if (c === undefined) return score;
  const not = Object.entries(c.notJudged ?? {}).map(([k, n]) => `${n} ${k}`);
  return `${score} · coverage ${c.percent}% (${c.covered} of ${c.total} spec entries judged${not.length > 0 ? `; not judged: ${not.join(', ')}` : ''})`;
}

/** One thing a gateway changed, both sides, as the gateway section shows it: grouped by cause, its checks and count. */
export interface GatewayChange {
  change: string;
  path: string;
  upstream: string;
  client: string;
  checks: string[];
  count: number;
}

/**
 * What the gateway changed (gateway.* failures whose defect is a change), one row per cause: the
 * upstream's value beside the client's. Other gateway failures (a status, a retry, a stall) are
 * causes of their own, listed with the rest.
 */
export function gatewayChanges(results: readonly CheckResult[]): GatewayChange[] {
  const rows = new Map<string, GatewayChange>();
  for (const r of results) {
    if (r.area !== 'gateway') continue;
    for (const f of r.failures ?? []) {
      const d = f.defect;
      if (d?.kind !== 'changed') continue;
      const key = `${d.change} ${d.path}`;
      const row = rows.get(key) ?? { change: d.change, path: d.path, upstream: d.atUpstream ?? '(none)', client: d.atClient ?? '(none)', checks: [], count: 0 };
      if (!row.checks.includes(r.checkId)) row.checks.push(r.checkId);
      row.count += 1;
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}

/** A gateway run's upstream traffic in a sentence: requests per client request, and the model mapping. */
export function upstreamTrafficNote(t: NonNullable<RunTraffic['upstream']>): string {
  const per = Object.entries(t.perClientRequest).sort(([a], [b]) => Number(a) - Number(b)).map(([n, c]) => `${n} upstream request${n === '1' ? '' : 's'}: ${c}`);
  const models = Object.entries(t.models).map(([c, u]) => `${c} sent as ${u}`);
  return `${t.requests} upstream requests (${t.paired} paired) for ${t.marked} marked client requests; per client request, ${per.join(', ') || 'none'}${models.length > 0 ? `; models: ${models.join(', ')}` : ''}`;
}

/** What a cell's outcome rests on, as its record carries it, or counted from its results (a record written before `judging`). */
export function judgingOfRecord(record: RunRecord): Judging {
  return record.judging ?? judgingOf(record.results);
}

/** "78 of 140 must-checks judged; not judged: 62 inconclusive, 1 not-applicable" (the reasons are listed apart, judgingReasonNote). */
export function judgingNote(j: Judging): string {
  const not = byCount(j.notJudged).map(([k, n]) => `${n} ${k === 'error' ? (n === 1 ? 'error' : 'errors') : k}`);
  return `${j.judged} of ${plural(j.total, j.scope)} judged${not.length > 0 ? `; not judged: ${not.join(', ')}` : ''}`;
}

/** "18 inconclusive: the answers carried no message" (the check it was handed to is shown apart, as code). */
export function judgingReasonNote(r: UnjudgedReason): string {
  return `${r.count} ${r.kind === 'error' ? (r.count === 1 ? 'error' : 'errors') : r.kind}: ${r.reason}`;
}
