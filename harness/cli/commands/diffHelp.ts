import type { CommandInfo } from '../command.ts';

/** `diff` in the command list and its `--help`: loaded without the command's code. */
export const diffInfo: CommandInfo = {
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
};
