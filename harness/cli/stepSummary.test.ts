import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

const tmp = tempDirs('svc-step-summary-');

test('--step-summary FILE appends the run\'s summary.md to FILE (a CI job\'s summary), pass or fail', async () => {
  const dir = tmp();
  const file = join(dir, 'step-summary.md');
  writeFileSync(file, '# Earlier step\n');
  const args = ['--now', '2026-06-01T00:00:00Z', '--model', 'svc-v4-flash', '--only', 'usage.total', '--quiet', '--step-summary', file];
  expect(await main(['run', ...args, '--report-dir', join(dir, 'a')], captureIO())).toBe(0);
  expect(await main(['run', ...args, '--report-dir', join(dir, 'b'), '--fault', 'usage-total-wrong'], captureIO())).toBe(1);
  const written = readFileSync(file, 'utf8');
  expect(written).toBe(`# Earlier step\n${readFileSync(join(dir, 'a', 'summary.md'), 'utf8')}${readFileSync(join(dir, 'b', 'summary.md'), 'utf8')}`);
  expect(written).toMatch(/PASS[\s\S]*FAIL/);
});
