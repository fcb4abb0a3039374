import type { CommandInfo } from '../command.ts';

/** `diff` in the command list and its `--help`: loaded without the command's code. */
export const diffInfo: CommandInfo = {
  name: 'diff',
  summary: 'compare two runs: checks newly failing, newly flaky, newly passing, added and removed',
  help: `Usage: svc-conformance diff BASE.json NEW.json [--strict] [--allow-flaky]

Compares two runs check by check (same target, model and check id). Each file
is a report.json, or the bundle written by \`run --json FILE\`.

A check is newly flaky when it passed and failed over \`run --repeat N\` in
NEW and was not flaky in BASE; one flaky in BASE that fails every time in NEW
is newly failing, and one that passes every time is newly passing.

Options:
  --strict       newly failing (or flaky) should-checks count too
  --allow-flaky  a newly flaky check is listed but is not a regression
  -h, --help     show this help

Exit codes: 0 no must-check newly fails or is newly flaky; 1 one does (a
regression); 2 a file is not a report.`,
};
