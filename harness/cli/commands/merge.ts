import { join, resolve, relative } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { exitCodeOf, mergeRecords, readRunRecord, summaryOf } from '#harness/results/index.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { writeCellReports, writeSummary } from '../reportFiles.ts';

export const merge: Command = {
  name: 'merge',
  summary: 'combine the report.json files of shards (run --shard I/N) into one report per cell',
  help: `Usage: svc-conformance merge REPORT.json... [--report-dir DIR] [--strict]

Reads the report.json of each shard of a run (run --shard 1/3, 2/3, 3/3 on
several machines), merges the records of the same base URL and model, and
writes report.json, report.md, junit.xml and report.html per cell, plus
summary.json and summary.md, as one run would have.

Options:
  --report-dir DIR   where the merged reports go (default reports/merged)
  --strict           exit 1 on failing should-checks too
  -h, --help         show this help

Exit codes: 0 every must-check passed; 1 a check failed; 2 a file is not a
report, or two shards ran the same check on the same model.`,
  async run(argv, io) {
    const { values, positionals } = parseFlags('merge', argv, { 'report-dir': { type: 'string' }, strict: { type: 'boolean' } }, true);
    if (positionals.length === 0) throw new UsageError('merge: name the report.json files of the shards. Run `svc-conformance merge --help`.');
    const records = mergeRecords(await Promise.all(positionals.map((f) => readRunRecord(resolve(f)))));
    const dir = resolve(values['report-dir'] ?? join('reports', 'merged'));
    const paths = records.map((r) => writeCellReports(dir, r));
    const strict = values.strict === true;
    const summary = summaryOf(records, paths.map((p) => relative(dir, p)), { strict });
    writeSummary(dir, summary, records);
    for (const r of records) io.stdout(`${r.model} @ ${r.target.baseUrl}: ${r.summary.pass} passed, ${r.summary.fail} failed, ${r.summary.skip} skipped (${r.options.shard ?? 'one shard'})`);
    io.stdout(`merged ${positionals.length} report(s) into ${records.length} cell(s): ${dir}`);
    return exitCodeOf(records, { strict }) === 0 ? EXIT.ok : EXIT.conformanceFailure;
  },
};
