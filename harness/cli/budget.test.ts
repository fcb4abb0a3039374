import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { runChecks } from '#harness/runner/runChecks.ts';
import { runSuites } from '#harness/runner/runVitest.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');
const tmp = tempDirs('svc-budget-');

describe('--budget-usd', () => {
  test('a run whose estimate is above the budget does not start: exit 2, the estimate and what to do', async () => {
    const io = captureIO();
    const dir = tmp();
    const code = await main(['run', '--model', 'svc-v4-flash', '--only', 'schema.', '--budget-usd', '0.000000001', '--report-dir', dir], io);
    expect(code, io.text()).toBe(2);
    const err = io.err.join('\n');
    expect(err).toMatch(/estimated cost (\d+\.\d+) USD/);
    expect(err).toMatch(/the estimated cost \d+\.\d+ USD is above --budget-usd 0\.000000001\. Raise --budget-usd, or run less/);
    expect(io.out).toEqual([]);
  }, 120_000);

  test('within the budget the run goes ahead, and the report carries the estimate and the budget', async () => {
    const io = captureIO();
    const dir = tmp();
    const code = await main(['run', '--model', 'svc-v4-flash', '--only', 'schema.', '--budget-usd', '1', '--report-dir', dir, '--json', join(dir, 'all.json')], io);
    expect(code, io.text()).toBe(0);
    const { summary, records } = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(dir, 'all.json'), 'utf8'))) as { summary: Record<string, unknown>; records: Record<string, unknown>[] };
    expect(summary['budget']).toEqual({ limitUsd: '1', reached: false });
    const estimate = records[0]?.['estimate'] as { requests: number; expected: { costUsd: string }; upperBound: { costUsd: string } };
    expect(estimate.requests).toBeGreaterThan(0);
    expect(Number(estimate.upperBound.costUsd)).toBeGreaterThanOrEqual(Number(estimate.expected.costUsd));
  }, 120_000);

  test.each([['runChecks (in-process)', runChecks], ['the suites (vitest)', runSuites]] as const)('%s: once the spend reaches the budget, nothing more is sent: the checks not run are skipped for budget', async (_name, execute) => {
    const target = await emulatorTarget(spec, { now: NOW });
    try {
      // One answer's tokens exceed a millionth of a cent: the first paid answer reaches it.
      const run = await execute(emulatorRunConfig(target, ['svc-v4-flash'], NOW, { concurrency: 1, only: ['request.'], runs: 2, budget: { limitUsd: '0.00000001', pricedAt: NOW.toISOString() } }));
      const budget = run.results.filter((r) => r.verdict === 'skip' && r.reason?.startsWith('budget:'));
      const ran = run.results.filter((r) => !r.reason?.startsWith('budget:'));
      expect(ran.length).toBeGreaterThan(0);
      expect(budget.length).toBeGreaterThan(ran.length);
      // Requests stop: the checks skipped for budget sent nothing after the limit.
      expect(run.sent.reduce((n, s) => n + s.count, 0)).toBeLessThan(run.results.length);
    } finally {
      await target.close();
    }
  }, 120_000);
});
