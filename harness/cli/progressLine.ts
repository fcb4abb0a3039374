import type { CheckResult } from '#harness/core/outcome.ts';
import type { CommandIO } from './command.ts';

/**
 * One stderr line per finished check: count, verdict, id, model, which run of a repeated run
 * (`--repeat N`), and why when it did not pass (a flaky check: how many of its runs passed).
 * Checks that end one after the other with the same verdict and the same reason (a dead endpoint,
 * a refused key: every check says the same) print once, then one line with how many more did; the
 * report lists each.
 */
export function progressLine(io: CommandIO) {
  let same: { key: string; more: number; verdict: string } | undefined;
  const flush = () => {
    if (same !== undefined && same.more > 0) io.stderr(`  … and ${same.more} more ${same.more === 1 ? 'check' : 'checks'}: ${same.verdict.trim()}, for the same reason`);
    same = undefined;
  };
  return (r: CheckResult, n: number, planned: number, repetition?: { index: number; of: number }) => {
    const mark = r.verdict === 'pass' ? 'pass ' : r.verdict.padEnd(5);
    const why = r.verdict === 'pass' ? '' : r.reason ? `: ${r.reason}` : r.failures?.[0] ? `: ${r.failures[0].message}` : '';
    const key = why === '' ? undefined : `${r.verdict}${why}`;
    if (key !== undefined && key === same?.key) {
      same.more += 1;
      if (n === planned) flush();
      return;
    }
    flush();
    if (key !== undefined) same = { key, more: 0, verdict: mark };
    const run = repetition ? ` [run ${repetition.index}/${repetition.of}]` : '';
    io.stderr(`  [${String(n).padStart(String(planned).length)}/${planned}] ${mark} ${r.checkId} (${r.model})${run}${why}`);
  };
}
