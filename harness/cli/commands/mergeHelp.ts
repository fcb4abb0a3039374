import type { CommandInfo } from '../command.ts';

/** `merge` in the command list and its `--help`: loaded without the command's code. */
export const mergeInfo: CommandInfo = {
  name: 'merge',
  summary: 'combine the report.json files of shards (run --shard I/N) into one report per cell',
  help: `Usage: svc-conformance merge REPORT.json|RUN.json... [--report-dir DIR] [--strict]

Reads the report.json of each shard of a run (run --shard 1/3, 2/3, 3/3 on
several machines), or the file a shard wrote with run --json FILE (every
cell of it), merges the records of the same cell (model and target: the
embedded emulator, a replay, or a live base URL; shards that each ran their
own emulator merge though its port differed), and writes report.json,
report.md, junit.xml and report.html per cell, plus summary.json and
summary.md, as one run would have.

Options:
  --report-dir DIR   where the merged reports go (default reports/merged)
  --strict           exit 1 on failing should-checks too
  -h, --help         show this help

Shards of a \`run --repeat N\` merge as they were run: a flaky check fails the
merged run unless the shards ran with --allow-flaky (all of them, or none).

Exit codes: 0 every must-check passed; 1 a check failed (or was flaky); 2 a
file is not a report, or two shards ran the same check on the same model.`,
};
