import type { CommandInfo } from '../command.ts';

/** `trend` in the command list and its `--help`: loaded without the command's code. */
export const trendInfo: CommandInfo = {
  name: 'trend',
  summary: 'chart the score, coverage and outcome of the same cells over several reports (trend.html, trend.svg)',
  help: `Usage: svc-conformance trend REPORT.json... [--out DIR] [--spec DIR]

Reads reports of the same cells taken over time (each a cell's report.json
or a run's --json bundle), groups them by cell (target and model, as
--baseline matches them), orders each cell's reports by when they started,
and writes:

  DIR/trend.html   per cell: a line chart of score and coverage, and a table
                   of date, score, coverage, outcome and the checks whose
                   verdict changed since the report before
  DIR/trend.svg    the charts alone

Both are self-contained: no script, nothing fetched.

Score: every scored check (pass, fail, flaky, error) weighs must 3, should 2,
advisory 1; score = round(100 x weight passed / weight scored), a flaky check
earning half its weight, known failures (--known file, or --baseline) left
out.
Coverage: the distinct spec entries judged (pass, fail or flaky) of all the
entries the harness's checks name (of the spec --spec loads).

Options:
  --out DIR    where the two files go (default reports/trend)
  --spec DIR   the spec whose checks make the coverage's whole (default spec/)
  -h, --help   show this help

Exit codes: 0 written; 2 no file, a file that is not a report, or DIR cannot
be written.`,
};
