import type { CommandInfo } from '../command.ts';

/** `badge` in the command list and its `--help`: loaded without the command's code. */
export const badgeInfo: CommandInfo = {
  name: 'badge',
  summary: 'write a status badge (SVG, shields.io flat style) of a report: its score, else passing/failing',
  help: `Usage: svc-conformance badge REPORT.json [--label TEXT] [--out FILE]

Reads a cell's report.json, or the bundle of a whole run (run --json FILE,
{records: [...]}), and writes a self-contained SVG badge, drawn offline:

  conformance | 87/100

The message is the score: every scored check (pass, fail, flaky, error)
weighs must 3, should 2, advisory 1; score = round(100 x weight passed /
weight scored), a flaky check earning half its weight, known failures
(--known file, or --baseline) left out. Several cells: the lowest score.
Colour: 90 and up bright green, 75 green, 50 yellow, below red. A report in
which nothing was scored says "passing" (green) or "failing" (red), as its
outcome. The score decides nothing: a cell can score 97 and FAIL.

Options:
  --label TEXT   the left-hand text (default "conformance")
  --out FILE     where the SVG goes (default badge.svg)
  -h, --help     show this help

Exit codes: 0 the badge was written (whatever it says); 2 the file is not a
report, or FILE cannot be written.`,
};
