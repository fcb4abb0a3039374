import type { CommandInfo } from '../command.ts';

/** `check-spec` in the command list and its `--help`: loaded without the command's code. */
export const checkSpecInfo: CommandInfo = {
  name: 'check-spec',
  summary: 'load spec/ and report every problem with file, line, column and path',
  help: `Usage: svc-conformance check-spec [--spec DIR]

Loads the spec (every file named by service.yaml), checks each file against
spec/meta-schema.json and the names between files, and prints a summary.

Options:
  --spec DIR   spec directory (default: the spec/ shipped with the harness)
  -h, --help   show this help

Exit codes: 0 the spec loads; 2 it does not (each problem is printed).`,
};
