import type { CommandInfo } from '../command.ts';

/** `init-known` in the command list and its `--help`: loaded without the command's code. */
export const initKnownInfo: CommandInfo = {
  name: 'init-known',
  summary: 'write a known-failures file (svc-conformance.known.yaml) from a run\'s failures',
  help: `Usage: svc-conformance init-known REPORT.json... [--out FILE] [--force]

Writes a known-failures file from the failures that fail the run in REPORT.json (a
cell's report.json, or a run's --json bundle): one entry per failing check and model,
with the causes it failed for (so a different failure later is a new failure), the
target it failed at, and a reason to fill in, marked TODO. A run then reads the file
(--known FILE, or ./svc-conformance.known.yaml found in the working directory):

  - a listed check that fails for a listed cause is known: shown, counted, not failing
  - the same check failing for another cause fails the run
  - a listed check that passes now is stale: said at the top of each report; with
    --strict-known (meant for CI) the run exits 1
  - an entry past its until: date fails the run; an entry naming no check exits 2

Options:
  --out FILE   where to write (default svc-conformance.known.yaml)
  --force      replace FILE if it exists`,
};
