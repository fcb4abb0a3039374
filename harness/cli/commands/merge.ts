import { join, resolve, relative } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { mergeRecords, OUTCOME_WORD, readRecords, summaryOf, targetKey, withPolicy } from '#harness/results/index.ts';
import { parseFlags, type Command } from '../command.ts';
import { writeCellReports, writeSummary } from '../reportFiles.ts';
import { mergeInfo } from './mergeHelp.ts';

export const merge: Command = {
  ...mergeInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags('merge', argv, { 'report-dir': { type: 'string' }, strict: { type: 'boolean' } }, true);
    if (positionals.length === 0) throw new UsageError('merge: name the report.json files of the shards. Run `svc-conformance merge --help`.');
    // Each file is a cell's report.json or the bundle `run --json FILE` writes ({ summary, records }).
    const read = await Promise.all(positionals.map((f) => readRecords(resolve(f))));
    const merged = mergeRecords(read.flat());
    // --strict adds to the policy the shards ran with (mergeRecords has checked they agree); each merged report carries it.
    const records = values.strict === true ? withPolicy(merged, { strict: true }) : merged;
    const dir = resolve(values['report-dir'] ?? join('reports', 'merged'));
    const paths = records.map((r) => writeCellReports(dir, r));
    const summary = summaryOf(records, paths.map((p) => relative(dir, p)));
    writeSummary(dir, summary, records);
    for (const r of records) io.stdout(`${r.model} @ ${targetKey(r.target)}: ${r.summary.pass} passed, ${r.summary.fail} failed, ${r.summary.flaky > 0 ? `${r.summary.flaky} flaky, ` : ''}${r.summary.skip} skipped (${r.options.shard ?? 'one shard'})`);
    io.stdout(`merged ${read.flat().length} report(s) into ${records.length} cell(s): ${dir}`);
    io.stdout(`${OUTCOME_WORD[summary.outcome]}: ${summary.reason}`);
    return summary.exitCode;
  },
};
