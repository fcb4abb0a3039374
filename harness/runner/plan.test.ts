import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import { planRun, type Planned } from './plan.ts';
import { runChecks } from './runChecks.ts';
import { runSuites } from './runVitest.ts';

const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');
const SUITES = new URL('../../suites/', import.meta.url);
const idsOf = (plan: readonly Planned[]) => plan.map((p) => `${p.check.id} ${p.model}`).sort();
const resultIds = (results: readonly CheckResult[]) => results.map((r) => `${r.checkId} ${r.model}`).sort();

describe('planRun', () => {
  test('each area of the registry has its suite file, which plans that area', () => {
    const files = readdirSync(SUITES).filter((f) => f.endsWith('.suite.ts'));
    for (const f of files) expect(readFileSync(new URL(f, SUITES), 'utf8'), f).toContain(`describeChecks('${f.replace('.suite.ts', '')}')`);
    expect(files.map((f) => f.replace('.suite.ts', '')).sort()).toEqual(buildRegistry(spec).areas().sort());
  });

  test('the shards of a run, each area sharded on its own, add up to the whole plan once', () => {
    const selection = { models: ['svc-v4-flash', 'svc-v4-pro'], only: ['*list*'] };
    const whole = planRun(spec, selection);
    expect(new Set(whole.map((p) => p.check.area)).size).toBeGreaterThan(1);
    const shards = [1, 2, 3].flatMap((index) => planRun(spec, { ...selection, shard: { index, count: 3 } }));
    expect(idsOf(shards)).toEqual(idsOf(whole));
    expect(idsOf(planRun(spec, selection, 'models'))).toEqual(idsOf(whole.filter((p) => p.check.area === 'models')));
  });

  test.each([['the suites (vitest)', runSuites], ['runChecks (in-process)', runChecks]] as const)('what %s run is planRun: a shard of a run over several areas', async (_name, execute) => {
    const target = await emulatorTarget(spec, { now: NOW });
    try {
      const config = emulatorRunConfig(target, ['svc-v4-flash', 'svc-v4-pro'], NOW, { concurrency: 2, only: ['*list*'], shard: { index: 2, count: 3 }, runs: 1 });
      const run = await execute(config);
      expect(run.results.length).toBeGreaterThan(0);
      expect(resultIds(run.results)).toEqual(idsOf(planRun(spec, config)));
    } finally {
      await target.close();
    }
  }, 120_000);
});
