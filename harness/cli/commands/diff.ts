import { UsageError } from '#harness/core/errors/index.ts';
import { diffRecords, readRecords, type DiffEntry } from '#harness/results/index.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { diffInfo } from './diffHelp.ts';

export const diff: Command = {
  ...diffInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags('diff', argv, { strict: { type: 'boolean' }, 'allow-flaky': { type: 'boolean' } }, true);
    if (positionals.length !== 2) throw new UsageError('diff: name two files, BASE.json and NEW.json. Run `svc-conformance diff --help`.');
    const [base, next] = await Promise.all(positionals.map((f) => readRecords(f)));
    const d = diffRecords(base!, next!);
    const line = (e: DiffEntry) => `  ${e.checkId} (${e.model}, ${e.severity})${e.before ? ` was ${e.before}` : ''}${e.after ? `, now ${e.after}` : ''}`;
    const section = (title: string, entries: DiffEntry[]) => {
      io.stdout(`${title}: ${entries.length}`);
      for (const e of entries) io.stdout(line(e));
    };
    section('newly failing', d.newlyFailing);
    section('newly flaky', d.newlyFlaky);
    section('newly passing', d.newlyPassing);
    section('added', d.added);
    section('removed', d.removed);
    // A check newly flaky is a regression as one newly failing is, as `run` gates it, unless flaky checks are allowed.
    const worse = [...d.newlyFailing, ...(values['allow-flaky'] === true ? [] : d.newlyFlaky)];
    const regressions = worse.filter((e) => e.severity === 'must' || (values.strict === true && e.severity === 'should'));
    return regressions.length > 0 ? EXIT.conformanceFailure : EXIT.ok;
  },
};
