import { UsageError } from '#harness/core/errors/index.ts';
import { diffRecords, readRecords, type DiffEntry } from '#harness/results/index.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';

export const diff: Command = {
  name: 'diff',
  summary: 'compare two runs: checks newly failing, newly passing, added and removed',
  help: `Usage: svc-conformance diff BASE.json NEW.json [--strict]

Compares two runs check by check (same target, model and check id). Each file
is a report.json, or the bundle written by \`run --json FILE\`.

Options:
  --strict     newly failing should-checks count too
  -h, --help   show this help

Exit codes: 0 no must-check newly fails; 1 one does (a regression); 2 a file
is not a report.`,
  async run(argv, io) {
    const { values, positionals } = parseFlags('diff', argv, { strict: { type: 'boolean' } }, true);
    if (positionals.length !== 2) throw new UsageError('diff: name two files, BASE.json and NEW.json. Run `svc-conformance diff --help`.');
    const [base, next] = await Promise.all(positionals.map((f) => readRecords(f)));
    const d = diffRecords(base!, next!);
    const line = (e: DiffEntry) => `  ${e.checkId} (${e.model}, ${e.severity})${e.before ? ` was ${e.before}` : ''}${e.after ? `, now ${e.after}` : ''}`;
    const section = (title: string, entries: DiffEntry[]) => {
      io.stdout(`${title}: ${entries.length}`);
      for (const e of entries) io.stdout(line(e));
    };
    section('newly failing', d.newlyFailing);
    section('newly passing', d.newlyPassing);
    section('added', d.added);
    section('removed', d.removed);
    const regressions = d.newlyFailing.filter((e) => e.severity === 'must' || (values.strict === true && e.severity === 'should'));
    return regressions.length > 0 ? EXIT.conformanceFailure : EXIT.ok;
  },
};
