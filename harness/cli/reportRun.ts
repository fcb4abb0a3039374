import { appendFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { SUMMARY_RENDERERS } from '#harness/render/index.ts';
import { join, relative, resolve } from 'node:path';
import { gate, OUTCOME_WORD, scoreOf, summaryOf, withBaseline, withKnown, type KnownEntry, type RunRecord, type RunSummary, type RunTimings } from '#harness/results/index.ts';
import { answerTimesNote, cellName, concurrencyNote, plural, targetLabel, trafficByTarget } from '#harness/render/view.ts';
import { loadLine } from '#harness/render/loadView.ts';
import type { TargetsRun } from '#harness/runner/runTargets.ts';
import type { ReportSettings } from '#harness/runner/runConfig.ts';
import type { BudgetLedger } from '#harness/runner/spend/budgetLedger.ts';
import type { CommandIO } from './command.ts';
import { stageReports, writeCellReports, writeSummary } from './reportFiles.ts';
import { hintsOf } from './hints.ts';

/** What reporting reads: the run's settings it needs (--step-summary, `record`'s directory), and the outputs and gate inputs the command read. */
export interface ReportOptions extends ReportSettings {
  reportDir: string;
  /** --json FILE: the whole machine report (summary and every cell). */
  json?: string;
  /** --baseline FILE: its records, and the path as the user gave it. */
  baseline?: { records: RunRecord[]; source: string };
  /** --known FILE: the known failures (results/known.ts). */
  known?: { source: string; entries: KnownEntry[]; strict: boolean };
  budget?: BudgetLedger;
  /** Set once SIGINT, SIGTERM or the run's time ceiling stopped it. */
  interrupted?: RunRecord['interruptedBy'];
}

/** The record with its score (score.ts), judged under the policy it now carries (known failures left out). */
const withScore = (r: RunRecord): RunRecord => {
  const { score } = scoreOf(r);
  return score === undefined ? r : { ...r, score };
};

/** FILE written whole or not at all: a file beside it, renamed over it once written. */
function writeWhole(file: string, text: string): void {
  const next = `${file}.svc-conformance-next-${process.pid}`;
  try {
    writeFileSync(next, text);
    renameSync(next, file);
  } finally {
    rmSync(next, { force: true });
  }
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Writes a run's reports (each cell's, the summary, --json) and prints what it came to; returns the
 * exit code, the gate's (results/gate.ts) as every report says it. Each cell's report.json is
 * written last: it carries the timings, reporting included.
 */
export function reportRun(run: TargetsRun, options: ReportOptions, io: CommandIO): number {
  const { reportDir, interrupted } = options;
  const extras = { ...(options.budget ? { budget: options.budget.report() } : {}), ...(run.estimate ? { estimate: run.estimate } : {}) };
  const reportStart = performance.now();
  // The whole exit policy goes into each record, so its reports and a later re-reading judge alike.
  const baselined = options.baseline ? withBaseline(run.records, options.baseline.records, options.baseline.source) : run.records;
  const judged = options.known ? withKnown(baselined, options.known) : baselined;
  const cells = judged.map((r) => withScore({ ...r, ...extras, ...(interrupted ? { interruptedBy: interrupted } : {}) }));
  // Written beside the last reports and swapped in once complete: a run that dies here loses none of them.
  const staged = stageReports(reportDir);
  let summary: RunSummary;
  let timed: RunRecord[];
  let timings: RunTimings;
  try {
    const paths = cells.map((r) => writeCellReports(staged.dir, r, ['markdown', 'junit', 'html']));
    timings = run.clock.timings(run.records, performance.now() - reportStart);
    timed = cells.map((r) => ({ ...r, timings }));
    for (const r of timed) writeCellReports(staged.dir, r, ['json']);
    // Paths relative to the summary, so the report directory can be moved or published whole.
    summary = { ...summaryOf(timed, paths.map((p) => relative(staged.dir, p))), ...extras, timings };
    writeSummary(staged.dir, summary, timed);
    if (options.json) writeWhole(resolve(options.json), `${JSON.stringify({ summary, records: timed }, null, 2)}\n`);
    staged.commit();
  } catch (err) {
    staged.discard();
    throw err;
  }
  // --step-summary FILE: a CI job's summary (GitHub's $GITHUB_STEP_SUMMARY) gets the run's, whatever its outcome.
  if (options.stepSummary !== undefined) appendFileSync(resolve(options.stepSummary), readFileSync(join(reportDir, SUMMARY_RENDERERS.markdown.file)));
  for (const r of timed) {
    const s = r.summary;
    io.stdout(`${r.model} @ ${targetLabel(r.target)}: ${s.pass} passed, ${s.fail} failed (${s.mustFailures} must, ${s.shouldFailures} should, ${s.advisoryFailures} advisory${r.wrongBase ? `; ${r.wrongBase.checks.filter((id) => r.results.some((x) => x.checkId === id)).length} of them caused by the base URL` : ''}), ${s.flaky > 0 ? `${s.flaky} flaky${r.options.allowFlaky ? ' (allowed)' : ''}, ` : ''}${s.skip} skipped, ${s.unsupported} unsupported, ${s.error} errors; ${r.usage.promptTokens + r.usage.completionTokens} tokens, ${r.usage.costUsd} USD`);
  }
  io.stderr(`svc-conformance: ${timings.checks} checks in ${sec(timings.wallMs)} (${timings.checksPerSecond} checks/s): start-up ${sec(timings.startupMs)}, requests ${sec(timings.requestsMs)}, judging ${sec(timings.judgingMs)}, reporting ${sec(timings.reportingMs)}, other ${sec(timings.otherMs)}`);
  // Once per target, as the timings line, whatever --quiet: what the run asked of each endpoint.
  for (const { label, traffic: t } of trafficByTarget(timed)) io.stderr(`svc-conformance: ${label}: ${plural(t.requests, 'request')}${t.retries > 0 ? ` (${plural(t.retries, 'retry', 'retries')})` : ''}, concurrency ${concurrencyNote(t.concurrency)}${t.answerTimes ? `; ${answerTimesNote(t.answerTimes)}` : ''}`);
  // The load phase's figures, as summary.md words them: information, not a verdict.
  for (const r of timed) if (r.load !== undefined) io.stderr(`svc-conformance: ${r.model} @ ${targetLabel(r.target)} under load: ${loadLine(r.load)}`);
  if (options.budget?.report().reached) io.stderr(`svc-conformance: the spend reached --budget-usd ${options.budget.limitUsd}: the checks not run are reported as skipped (budget).`);
  io.stdout(`${OUTCOME_WORD[summary.outcome]}: ${summary.reason}`);
  for (const hint of hintsOf(timed)) io.stderr(hint);
  for (const c of gate(timed).cells) if (c.stale.length > 0) io.stderr(`svc-conformance: ${cellName(c.record)}: stale known failures, the checks pass now: remove ${c.stale.map((e) => `${e.check} (${e.at})`).join(', ')}${c.record.options.known?.strict ? '' : ' (--strict-known fails the run on them)'}.`);
  if (summary.outcome === 'nothing-judged') io.stderr('svc-conformance: nothing was shown to hold, so this is not a pass. Each skip says why in report.md: widen --only or --skip, drop a --without, or record the checks a replay lacks.');
  io.stdout(`reports: ${reportDir} (summary.md)${summary.outcome === 'fail' ? ' — failures are listed in each report.md' : ''}`);
  if (options.recordDir !== undefined) io.stdout(`recording: ${options.recordDir} (manifest.json, exchanges/)`);
  if (interrupted) io.stderr(`svc-conformance: interrupted (${interrupted === 'ceiling' ? 'its time ceiling' : interrupted}): the reports are partial; checks not run are reported as skipped (interrupted).`);
  return summary.exitCode;
}
