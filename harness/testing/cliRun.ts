// Test support: the CLI's `run`, in this process, with every check's result read back from its --json report.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult } from '#harness/core/outcome.ts';
import { main } from '#harness/cli/main.ts';
import { captureIO } from './captureIO.ts';

export interface CliRun {
  code: number;
  /** Every check's result, across the run's records (base URLs, models). */
  results: CheckResult[];
  /** Where the reports were written (the --json report is `all.json` in it). */
  dir: string;
  io: ReturnType<typeof captureIO>;
}

/** Every check's result in a --json report, across its records. */
export function resultsIn(jsonPath: string): CheckResult[] {
  return (JSON.parse(readFileSync(jsonPath, 'utf8')) as { records: { results: CheckResult[] }[] }).records.flatMap((r) => r.results);
}

/** `run ...args --report-dir <dir> --json <dir>/all.json`, what it printed kept in `io`. */
export async function runCli(args: readonly string[], dir: string, io = captureIO()): Promise<CliRun> {
  const json = join(dir, 'all.json');
  const code = await main(['run', ...args, '--report-dir', dir, '--json', json], io);
  if (!existsSync(json)) throw new Error(`the run wrote no --json report (exit ${code}): ${io.err.join('\n')}`);
  return { code, results: resultsIn(json), dir, io };
}
