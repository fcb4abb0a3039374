// Test support: the CLI, in this process, run against a hostile server (hostileServer.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult } from '#harness/core/outcome.ts';
import { main } from '#harness/cli/main.ts';
import { captureIO } from './captureIO.ts';
import type { HostileServer } from './hostileServer.ts';

export interface HostileRun {
  code: number;
  /** The report directory, and the one cell's reports in it (svc-v4-flash). */
  dir: string;
  cell: string;
  /** The cell's results; none when no report.json was written. */
  results: CheckResult[];
  stderr: string;
}

/**
 * `run --base-url <server> --model svc-v4-flash --now <now> --report-dir <dir> ...args`, with the
 * server's key in a variable of its own for the length of the run.
 */
export async function runHostile(server: HostileServer, dir: string, now: string, args: readonly string[]): Promise<HostileRun> {
  const keyVar = `SVC_HOSTILE_${server.mode.toUpperCase().replace(/-/g, '_')}_${new URL(server.url).port}`;
  process.env[keyVar] = server.apiKey;
  const io = captureIO();
  try {
    const code = await main(['run', '--base-url', server.url, '--api-key-env', keyVar, '--model', 'svc-v4-flash', '--now', now, '--report-dir', dir, ...args], io);
    const cell = join(dir, `127.0.0.1_${new URL(server.url).port}`, 'svc-v4-flash');
    const report = join(cell, 'report.json');
    const results = existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as { results: CheckResult[] }).results : [];
    return { code, dir, cell, results, stderr: io.err.join('\n') };
  } finally {
    delete process.env[keyVar];
  }
}

/** Everything a result says about itself: reason, failure messages, and the evidence's error and status line. */
export function story(r: CheckResult): string {
  const parts = [r.reason ?? ''];
  for (const f of r.failures ?? []) {
    parts.push(f.message);
    const ev = f.evidence;
    if (ev?.error) parts.push(`${ev.error.code}: ${ev.error.message}`);
    if (ev?.response) parts.push(`HTTP ${ev.response.status}${ev.response.headers.location ? ` location ${ev.response.headers.location}` : ''}`);
  }
  return parts.join(' | ');
}
