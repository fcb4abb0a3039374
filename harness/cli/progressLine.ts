import type { CheckResult } from '#harness/core/outcome.ts';
import type { CommandIO } from './command.ts';

/** One stderr line per finished check: count, verdict, id, model, and why when it did not pass. */
export function progressLine(io: CommandIO) {
  return (r: CheckResult, n: number, planned: number) => {
    const mark = r.verdict === 'pass' ? 'pass ' : r.verdict.padEnd(5);
    const why = r.verdict === 'pass' ? '' : r.reason ? `: ${r.reason}` : r.failures?.[0] ? `: ${r.failures[0].message}` : '';
    io.stderr(`  [${String(n).padStart(String(planned).length)}/${planned}] ${mark} ${r.checkId} (${r.model})${why}`);
  };
}
