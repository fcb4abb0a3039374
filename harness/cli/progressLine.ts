import type { CheckResult } from '#harness/core/outcome.ts';
import type { CommandIO } from './command.ts';

/**
 * One stderr line per finished check: count, verdict, id, model, which run of a repeated run
 * (`--repeat N`), and why when it did not pass (a flaky check: how many of its runs passed).
 */
export function progressLine(io: CommandIO) {
  return (r: CheckResult, n: number, planned: number, repetition?: { index: number; of: number }) => {
    const mark = r.verdict === 'pass' ? 'pass ' : r.verdict.padEnd(5);
    const why = r.verdict === 'pass' ? '' : r.reason ? `: ${r.reason}` : r.failures?.[0] ? `: ${r.failures[0].message}` : '';
    const run = repetition ? ` [run ${repetition.index}/${repetition.of}]` : '';
    io.stderr(`  [${String(n).padStart(String(planned).length)}/${planned}] ${mark} ${r.checkId} (${r.model})${run}${why}`);
  };
}
