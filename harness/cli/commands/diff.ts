import { UsageError } from '#harness/core/errors/index.ts';
import { diffRecords, OUTCOME_WORD, readRecords, withPolicy, type DiffEntry } from '#harness/results/index.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { diffInfo } from './diffHelp.ts';

export const diff: Command = {
  ...diffInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags('diff', argv, { strict: { type: 'boolean' }, 'allow-flaky': { type: 'boolean' } }, true);
    if (positionals.length !== 2) throw new UsageError('diff: name two files, BASE.json and NEW.json. Run `svc-conformance diff --help`.');
    const [base, read] = await Promise.all(positionals.map((f) => readRecords(f)));
    // The flags add to the policy NEW ran with; they never relax it.
    const next = withPolicy(read!, {
      ...(values.strict === true ? { strict: true } : {}),
      ...(values['allow-flaky'] === true ? { allowFlaky: true } : {}),
    });
    const d = diffRecords(base!, next, positionals[0]!);
    const line = (e: DiffEntry) => `  ${e.checkId} (${e.model}, ${e.severity})${e.before ? ` was ${e.before}` : ''}${e.after ? `, now ${e.after}` : ''}${e.why ? `: ${e.why}` : ''}`;
    const section = (title: string, entries: DiffEntry[]) => {
      io.stdout(`${title}: ${entries.length}`);
      for (const e of entries) io.stdout(line(e));
    };
    section('newly failing', d.newlyFailing);
    section('newly flaky', d.newlyFlaky);
    section('newly passing', d.newlyPassing);
    section('no longer judged', d.noLongerJudged);
    io.stdout(`failing for another cause: ${d.failingOtherwise.length}`);
    for (const e of d.failingOtherwise) io.stdout(`  ${e.checkId} (${e.model}, ${e.severity}) was ${e.keysBefore.join(', ')}; now ${e.keysAfter.join(', ')}`);
    section('added', d.added);
    section('removed', d.removed);
    // The same decision `run --baseline BASE` makes for NEW (results/gate.ts).
    const { decision } = d;
    io.stdout(`${OUTCOME_WORD[decision.outcome]} against BASE: ${decision.reason}`);
    for (const c of decision.cells) for (const r of c.gating) io.stdout(`  regression: ${r.checkId} (${r.model}, ${r.severity}) was ${c.record.options.baseline?.verdicts[r.checkId]}, now ${r.verdict}`);
    // A check that no longer shows anything is no regression of the endpoint, but under --strict it fails the comparison.
    const unjudgedMust = d.noLongerJudged.filter((e) => e.severity === 'must');
    if (values.strict === true && unjudgedMust.length > 0) {
      io.stdout(`FAIL under --strict: ${unjudgedMust.length} must-check${unjudgedMust.length === 1 ? ' is' : 's are'} no longer judged (listed above)`);
      return EXIT.conformanceFailure;
    }
    return decision.outcome === 'pass' ? EXIT.ok : EXIT.conformanceFailure;
  },
};
