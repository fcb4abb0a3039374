import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { OUTCOME_WORD, serializeRunRecord, type Outcome, type RunRecord, type RunSummary } from '#harness/results/index.ts';
import { RunClock } from '#harness/runner/runClock.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { cleanRecord, failingAt, flakyRecord, interruptedRecord, passingOf, skippedRecord } from '#harness/testing/outcomeRecords.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';
import { reportRun } from './reportRun.ts';

const tmp = tempDirs('svc-outcomes-');

interface Ending {
  name: string;
  record: () => RunRecord;
  /** --baseline: this record as the baseline run (default: the same run with every check passing, for `diff` only). */
  baseline?: () => RunRecord;
  interrupted?: 'SIGINT' | 'SIGTERM';
  outcome: Outcome;
  exit: 0 | 1 | 130 | 143;
}

const strict = (r: RunRecord): RunRecord => ({ ...r, options: { ...r.options, strict: true } });

/** Every way a run can end, and what it must come to. */
const ENDINGS: Ending[] = [
  { name: 'clean', record: cleanRecord, outcome: 'pass', exit: 0 },
  { name: 'a must failure', record: () => failingAt('must'), outcome: 'fail', exit: 1 },
  { name: 'only should failures', record: () => failingAt('should'), outcome: 'pass', exit: 0 },
  { name: 'only advisory failures, strict', record: () => strict(failingAt('advisory')), outcome: 'pass', exit: 0 },
  { name: 'a should failure, strict', record: () => strict(failingAt('should')), outcome: 'fail', exit: 1 },
  { name: 'a baseline with only known failures', record: sampleRecord, baseline: sampleRecord, outcome: 'pass', exit: 0 },
  { name: 'a baseline and a regression', record: () => failingAt('must'), baseline: cleanRecord, outcome: 'fail', exit: 1 },
  { name: 'flaky', record: () => flakyRecord(false), outcome: 'fail', exit: 1 },
  { name: 'flaky, --allow-flaky', record: () => flakyRecord(true), outcome: 'pass', exit: 0 },
  { name: 'interrupted (SIGINT)', record: () => interruptedRecord('SIGINT'), interrupted: 'SIGINT', outcome: 'interrupted', exit: 130 },
  { name: 'interrupted (SIGTERM)', record: () => interruptedRecord('SIGTERM'), interrupted: 'SIGTERM', outcome: 'interrupted', exit: 143 },
  { name: 'nothing judged (not recorded)', record: () => skippedRecord('not-recorded'), outcome: 'nothing-judged', exit: 1 },
  { name: 'nothing judged (blocked)', record: () => skippedRecord('blocked'), outcome: 'nothing-judged', exit: 1 },
  // Every check of this cell held, but its base URL is one the harness cannot build on (runner/wrongBase.ts): a FAIL, not a usage error.
  { name: 'a base URL ending in /v1', record: () => ({ ...cleanRecord(), wrongBase: { ending: '/v1', kind: 'base', tryBaseUrl: 'http://127.0.0.1:8080', checks: ['endpoint.list-models-on-v1.served'], message: 'the base URL http://127.0.0.1:8080/v1 ends in /v1, which the harness adds itself ({base_url}/v1): try --base-url http://127.0.0.1:8080' } }), outcome: 'fail', exit: 1 },
];

/** The counts on junit.xml's root element. */
function junitCounts(xml: string): { failures: number; errors: number } {
  const root = /<testsuites [^>]*failures="(\d+)" errors="(\d+)"/.exec(xml);
  if (!root) throw new Error('no <testsuites> counts');
  return { failures: Number(root[1]), errors: Number(root[2]) };
}

describe('every output of a run says the same outcome', () => {
  test.each(ENDINGS)('$name: $outcome, exit $exit', async (ending) => {
    const dir = tmp();
    const reportDir = join(dir, 'reports');
    const record = ending.record();
    const baselineFile = join(dir, 'baseline.json');
    writeFileSync(baselineFile, serializeRunRecord(ending.baseline ? ending.baseline() : passingOf(record)));
    const io = captureIO();
    const exit = reportRun(
      { records: [record], clock: new RunClock() },
      { reportDir, ...(ending.baseline ? { baseline: { records: [ending.baseline()], source: baselineFile } } : {}), ...(ending.interrupted ? { interrupted: ending.interrupted } : {}) },
      io,
    );
    const word = OUTCOME_WORD[ending.outcome];

    expect(exit, 'exit code').toBe(ending.exit);
    const summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as RunSummary;
    expect({ outcome: summary.outcome, exitCode: summary.exitCode }, 'summary.json').toEqual({ outcome: ending.outcome, exitCode: ending.exit });
    expect(readFileSync(join(reportDir, 'summary.md'), 'utf8').split('\n')[0], 'summary.md').toMatch(new RegExp(`^# \\S+ ${word}: `));
    expect(io.out.join('\n'), 'what the CLI prints').toContain(`${word}: `);
    expect(io.err.some((l) => l.includes('nothing was shown to hold')), 'a next step when nothing was judged').toBe(ending.outcome === 'nothing-judged');

    const cell = join(reportDir, 'emulator', record.model);
    expect(readdirSync(cell).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md']);
    expect(readFileSync(join(cell, 'report.md'), 'utf8').split('\n')[0], 'report.md').toMatch(new RegExp(`^# \\S+ ${word}: `));
    expect(readFileSync(join(cell, 'report.html'), 'utf8'), 'report.html').toContain(`<span class="badge ${ending.outcome}">${word}</span>`);
    const junit = junitCounts(readFileSync(join(cell, 'junit.xml'), 'utf8'));
    expect(junit.failures + junit.errors > 0, `junit.xml: ${JSON.stringify(junit)}`).toBe(ending.exit !== 0);

    // `diff BASE NEW` decides what `run --baseline BASE` decides (without a baseline: against the run with every check passing).
    const diffIO = captureIO();
    const diffExit = await main(['diff', baselineFile, join(cell, 'report.json')], diffIO);
    expect(diffExit, `diff: ${diffIO.text()}`).toBe(ending.exit === 0 ? 0 : 1);
    expect(diffIO.out.join('\n')).toContain(`${word} against BASE`);
  });
});
