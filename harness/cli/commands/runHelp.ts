import type { CommandInfo } from '../command.ts';
import { optionsHelp, usageOf } from '../runOptions.ts';

/** `run --help`. */
export const RUN_HELP = `${usageOf('run')}

Sends requests, judges every answer against spec/, and writes, for each base URL
and model, report.json, report.md, junit.xml and report.html under
DIR/<host>/<model>/ (DIR/emulator/<model>/ for the embedded emulator,
DIR/replay/<model>/ for a recording), plus DIR/summary.md and DIR/summary.json
across them. A previous run's reports in DIR are removed first.

Without --base-url the embedded emulator is started in-process on a loopback
port: the main job (npm start), needing no key and no network.

Every wait is bounded. A Retry-After is waited out up to the description's
back-off cap (spec/errors.yaml errors.retry.max_delay_seconds); one asking
longer is not: that request is refused, and its check fails saying the wait it
asked. The run has a time ceiling derived from these settings, said as it
starts; past it, it stops as INTERRUPTED. SIGINT or SIGTERM stops it in any
phase within a few seconds (a second one at once).

Options:
${optionsHelp('run')}
  -h, --help             show this help

Outcome and exit code (every report's headline says the same):
  0   PASS            must-checks were judged and every one held (should-checks
                      too, with --strict)
  1   FAIL            a check failed, was flaky over --repeat N (unless
                      --allow-flaky), or could not be judged (error: refused,
                      reset, timed out, unreadable answer); or the key was refused
  1   NOTHING JUDGED  no must-check was judged (all skipped, blocked, not
                      recorded): nothing was shown to hold
  2   a usage or configuration error: nothing was run
  130 INTERRUPTED     SIGINT or the time ceiling (143: SIGTERM); the partial
                      reports are written`;


/** `run` in the command list and its `--help`: loaded without the command's code. */
export const runInfo: CommandInfo = {
  name: 'run',
  summary: 'run the conformance checks against the embedded emulator or a base URL, and write reports',
  help: RUN_HELP,
};
