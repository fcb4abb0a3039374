import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

const tmp = tempDirs('svc-selection-');

async function cli(args: string[], dir = tmp()) {
  const io = captureIO();
  const code = await main(['run', '--report-dir', dir, '--json', join(dir, 'all.json'), '--model', 'svc-v4-flash', '--now', '2026-06-01T00:00:00Z', ...args], io);
  const ids = () => (JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { records: { results: CheckResult[] }[] }).records.flatMap((r) => r.results.map((x) => x.checkId));
  return { code, dir, io, ids };
}

describe('a selection that selects nothing is a usage error, never a green "0 checks"', () => {
  test('a pattern that matches no check is named, exit 2, and no report is written', async () => {
    const run = await cli(['--only', 'nosuchcheck']);
    expect(run.code).toBe(2);
    expect(run.io.err.join('\n')).toMatch(/^run: --only "nosuchcheck" matches no check \(of \d+ checks on svc-v4-flash\)\. A pattern is part of a check id, or a glob with \*; areas: .*auth/);
    expect(existsSync(join(run.dir, 'summary.md'))).toBe(false);
  });

  test('--skip that matches nothing, and a selection that --skip empties, are refused too', async () => {
    expect((await cli(['--skip', 'nosuch*'])).io.err.join('\n')).toMatch(/--skip "nosuch\*" matches no check/);
    const emptied = await cli(['--only', 'auth.*', '--skip', 'auth.*']);
    expect(emptied.code).toBe(2);
    expect(emptied.io.err.join('\n')).toMatch(/the selection leaves no check to run/);
  });

  test('--only takes a comma-separated list and may be repeated; --skip leaves checks out', async () => {
    const listed = await cli(['--only', 'auth.*,models.list*', '--only', 'balance.*']);
    expect(listed.code).toBe(0);
    const areas = new Set(listed.ids().map((id) => id.split('.')[0]));
    expect([...areas].sort()).toEqual(['auth', 'balance', 'models']);
    const skipped = await cli(['--only', 'auth.*,models.*', '--skip', 'models.*']);
    expect(new Set(skipped.ids().map((id) => id.split('.')[0]))).toEqual(new Set(['auth']));
  });
});

test("a previous run's summary does not survive a new run in the same directory", async () => {
  const dir = tmp();
  writeFileSync(join(dir, 'summary.md'), '# ✅ PASS: svc-conformance, 4 cells\n');
  mkdirSync(join(dir, 'emulator', 'svc-v4-pro'), { recursive: true });
  writeFileSync(join(dir, 'emulator', 'svc-v4-pro', 'report.md'), '# ✅ PASS: svc-v4-pro\n');
  const run = await cli(['--only', 'auth.*'], dir);
  expect(run.code).toBe(0);
  expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/^# ✅ PASS: svc-conformance, 1 cell\n/);
  // the cell this run did not make is gone: it would read as current
  expect(existsSync(join(dir, 'emulator', 'svc-v4-pro'))).toBe(false);
  expect(existsSync(join(dir, 'emulator', 'svc-v4-flash', 'report.md'))).toBe(true);
});
