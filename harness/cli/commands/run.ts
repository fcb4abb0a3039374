import { EXIT, parseFlags, type Command } from '../command.ts';

export const run: Command = {
  name: 'run',
  summary: 'run the conformance checks against a target (not built yet)',
  help: `Usage: svc-conformance run

The conformance run is not built yet: the checks, the targets and the reports
come with the harness (issue 4). Until then this command checks nothing and
writes no report.

Options:
  -h, --help   show this help

Exit codes: 2 while the harness is not built.`,
  async run(argv, io) {
    parseFlags('run', argv, {});
    io.stderr(
      'svc-conformance run: the conformance harness is not built yet, so nothing was checked and no report was written.\n' +
        'What works today: `svc-conformance check-spec`, `svc-conformance schemas --out DIR`, `svc-conformance openapi --out FILE`.',
    );
    return EXIT.usage;
  },
};
