#!/usr/bin/env node
// Reads what a `svc-conformance run` wrote under its --report-dir, for the GitHub Action
// (action.yml, scripts/ci/action-steps.sh). Plain Node, no dependencies (no jq on the runner).
//
//   node annotate.mjs annotations REPORT_DIR EXIT_CODE
//     one `::error title=...::message` line per cause that fails its cell: each cell's report.json
//     `causes` of severity must (and should when the cell ran with --strict), in cells whose outcome
//     is not pass (a known failure or a non-regression against --baseline leaves its cell passing).
//     A failing run with no such cause (NOTHING JUDGED, interrupted, a usage error) gets one line
//     with the reason. The messages are the harness's own, which redacts keys before writing them.
//   node annotate.mjs outcome REPORT_DIR EXIT_CODE
//     the outcome word of summary.json (pass, fail, nothing-judged, interrupted), or `error` when
//     the run wrote no summary (exit 2: a usage or configuration error, nothing ran).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [mode, reportDir = 'reports', exitText = ''] = process.argv.slice(2);
const exitCode = Number.parseInt(exitText, 10);

/** A workflow command's message: %, CR and LF escaped (GitHub's toCommandValue). */
const data = (s) => String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A workflow command's property value: also `:` and `,`. */
const property = (s) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const summaryFile = join(resolve(reportDir), 'summary.json');
const summary = existsSync(summaryFile) ? readJson(summaryFile) : undefined;

if (mode === 'outcome') {
  process.stdout.write(`${typeof summary?.outcome === 'string' ? summary.outcome : 'error'}\n`);
  process.exit(0);
}
if (mode !== 'annotations') {
  process.stderr.write('usage: annotate.mjs annotations|outcome REPORT_DIR EXIT_CODE\n');
  process.exit(2);
}

/** The target as the reports name it: the embedded emulator and a replay by what they are. */
function targetOf(record, cell) {
  const kind = record?.target?.kind;
  if (kind === 'emulator') return 'emulator';
  if (kind === 'fixtures') return 'replay';
  return record?.target?.baseUrl ?? cell.baseUrl ?? '?';
}

const lines = [];
for (const cell of Array.isArray(summary?.cells) ? summary.cells : []) {
  if (cell.outcome === 'pass') continue;
  const record = typeof cell.report === 'string' ? readJson(join(resolve(reportDir), cell.report)) : undefined;
  if (record === undefined) continue;
  const strict = record.options?.strict === true;
  for (const cause of Array.isArray(record.causes) ? record.causes : []) {
    if (!(cause.severity === 'must' || (strict && cause.severity === 'should'))) continue;
    const checks = [...new Set((cause.affected ?? []).map((a) => a.checkId))];
    const title = `svc-conformance [${cause.severity}] ${record.model ?? cell.model} at ${targetOf(record, cell)}`;
    const count = `${cause.failures} failure${cause.failures === 1 ? '' : 's'}`;
    lines.push(`::error title=${property(title)}::${data(`${cause.message} (${count}: ${checks.join(', ')})`)}`);
  }
}
if (lines.length === 0 && Number.isInteger(exitCode) && exitCode !== 0) {
  const what = summary === undefined ? `exited ${exitCode} before writing ${summaryFile} (a usage or configuration error: see the step's log)` : `${String(summary.outcome).toUpperCase()}: ${summary.reason}`;
  lines.push(`::error title=${property('svc-conformance')}::${data(what)}`);
}
if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
