import { HarnessError } from '#harness/core/errors/index.ts';
import type { RunRecord, RunSummary } from './runRecord.ts';
import { gate } from './gate.ts';
import { summarize } from './summarize.ts';
import { causesOf } from './causes.ts';

/**
 * The cross-cell summary of one run: one cell per record (in the order given), `reportPaths[i]`
 * the report written for `records[i]`; totals recounted over every result; the outcome, its reason
 * and the exit code from the gate (gate.ts), under the policy each record carries.
 */
export function summaryOf(records: readonly RunRecord[], reportPaths: readonly string[]): RunSummary {
  if (records.length === 0) throw new HarnessError('HARNESS_RESULTS_EMPTY', 'no run records to summarize: no cell was run');
  if (reportPaths.length !== records.length) {
    throw new TypeError(`summaryOf: ${records.length} records but ${reportPaths.length} report paths`);
  }
  const time = (pick: (r: RunRecord) => string, later: boolean) =>
    records.map(pick).reduce((a, b) => ((Date.parse(b) > Date.parse(a)) === later ? b : a));
  const decision = gate(records);
  return {
    schemaVersion: 1,
    startedAt: time((r) => r.startedAt, false),
    finishedAt: time((r) => r.finishedAt, true),
    cells: records.map((r, i) => ({ baseUrl: r.target.baseUrl, model: r.model, report: reportPaths[i]!, outcome: decision.cells[i]!.outcome, reason: decision.cells[i]!.reason, judging: decision.cells[i]!.judging, summary: r.summary, usage: r.usage, ...(r.traffic ? { traffic: r.traffic } : {}) })),
    totals: summarize(records.flatMap((r) => r.results)),
    causes: causesOf(records.flatMap((r) => r.results)),
    outcome: decision.outcome,
    reason: decision.reason,
    exitCode: decision.exitCode,
    ...(records.some((r) => r.interrupted) ? { interrupted: true } : {}),
  };
}
