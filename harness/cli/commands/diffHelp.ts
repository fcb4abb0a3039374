import type { CommandInfo } from '../command.ts';

/** `diff` in the command list and its `--help`: loaded without the command's code. */
export const diffInfo: CommandInfo = {
  name: 'diff',
  summary: 'compare two runs: checks newly failing, newly flaky, newly passing, failing for another cause, added and removed',
  help: `Usage: svc-conformance diff BASE.json NEW.json [--strict] [--allow-flaky]

Compares two runs check by check (same target, model and check id). Each file
is a report.json, or the bundle written by \`run --json FILE\`.

A check is newly flaky when it passed and failed over \`run --repeat N\` in
NEW and was not flaky in BASE; one flaky in BASE that fails every time in NEW
is newly failing, and one that passes every time is newly passing.

A check that fails in both for another cause (its failures' keys differ:
another place in the body, another status) is listed apart, and so is one
judged in BASE that NEW no longer judges (skipped: blocked, out of scope, not
recorded; or unsupported), with why. An error counts
as a failure, as the run's gate counts it. Its last lines
are the decision \`run --baseline BASE.json\` would have made for NEW: PASS,
or FAIL with each regression (a check that fails the run now and was not
failing in BASE), INTERRUPTED or NOTHING JUDGED (NEW cannot show that
nothing regressed).

Options:
  --strict       should-checks gate too (as NEW's run with --strict would),
                 and a must-check no longer judged fails the comparison
  --allow-flaky  a flaky check is listed but does not gate
  -h, --help     show this help

Exit codes: 0 PASS against BASE; 1 a regression, NEW is interrupted or
judged nothing, or (--strict) a must-check is no longer judged; 2 a file is not a report, or the two share no cell (target
and model).`,
};
