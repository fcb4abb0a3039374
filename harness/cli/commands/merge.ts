import { join, resolve, relative } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { exitCodeOf, mergeRecords, readRunRecord, summaryOf } from '#harness/results/index.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { writeCellReports, writeSummary } from '../reportFiles.ts';
import { mergeInfo } from './mergeHelp.ts';

export const merge: Command = {
  ...mergeInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags('merge', argv, { 'report-dir': { type: 'string' }, strict: { type: 'boolean' } }, true);
    if (positionals.length === 0) throw new UsageError('merge: name the report.json files of the shards. Run `svc-conformance merge --help`.');
    const records = mergeRecords(await Promise.all(positionals.map((f) => readRunRecord(resolve(f)))));
    const dir = resolve(values['report-dir'] ?? join('reports', 'merged'));
    const paths = records.map((r) => writeCellReports(dir, r));
    const strict = values.strict === true;
    // Flaky checks are allowed as the shards ran (mergeRecords has checked they agree), as each merged report says.
    const policy = { strict, allowFlaky: records.every((r) => r.options.allowFlaky === true) };
    const summary = summaryOf(records, paths.map((p) => relative(dir, p)), policy);
    writeSummary(dir, summary, records);
    for (const r of records) io.stdout(`${r.model} @ ${r.target.baseUrl}: ${r.summary.pass} passed, ${r.summary.fail} failed, ${r.summary.flaky > 0 ? `${r.summary.flaky} flaky, ` : ''}${r.summary.skip} skipped (${r.options.shard ?? 'one shard'})`);
    io.stdout(`merged ${positionals.length} report(s) into ${records.length} cell(s): ${dir}`);
    return exitCodeOf(records, policy) === 0 ? EXIT.ok : EXIT.conformanceFailure;
  },
};
