import { describe, expect, test } from 'vitest';
import { defaultModels } from '#harness/checks/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { RunConfig } from '../runConfig.ts';
import { COST_PROFILE, dryRun, dryRunConfig, estimateCost, estimateOf, measureCostProfile } from './estimate.ts';

const { spec } = loadSpec();
const at = new Date(COST_PROFILE.measuredAt);
const config = (overrides: Partial<RunConfig> = {}): RunConfig => ({ ...dryRunConfig(defaultModels(spec), at), ...overrides });

describe('the committed cost profile', () => {
  test('is what the checks cost now (else: npm run profile:costs)', async () => {
    const fresh = await measureCostProfile(spec, at);
    const stale = 'costProfile.json no longer matches the checks: run `npm run profile:costs` and commit it';
    expect(fresh.checks, stale).toEqual(COST_PROFILE.checks);
    expect(Object.keys(fresh.models), stale).toEqual(Object.keys(COST_PROFILE.models));
    for (const [model, measured] of Object.entries(fresh.models)) {
      for (const share of ['property', 'other'] as const) {
        const committed = COST_PROFILE.models[model]![share];
        const now = measured[share];
        expect(now.requests, `${stale} (${model}, ${share}: requests)`).toBe(committed.requests);
        expect(now.bound, `${stale} (${model}, ${share}: bound)`).toEqual(committed.bound);
        // The caching checks salt their prompts: reported tokens vary a little from run to run.
        for (const k of ['promptTokens', 'completionTokens'] as const) expect(Math.abs(now.tokens[k] - committed.tokens[k]), `${stale} (${model}, ${share}: ${k})`).toBeLessThanOrEqual(Math.max(20, committed.tokens[k] * 0.05));
      }
    }
  });

  test('a whole run is estimated from it, within a few percent of measuring the same plan', async () => {
    const fromProfile = await estimateCost(spec, config(), at);
    const measured = estimateOf(spec, await dryRun(spec, config()), at);
    expect(fromProfile.method).toBe('plan-profile');
    expect(measured.method).toBe('emulator-dry-run');
    expect(Math.abs(fromProfile.requests - measured.requests)).toBeLessThanOrEqual(Math.ceil(measured.requests * 0.05));
    expect(Math.abs(Number(fromProfile.expected.costUsd) - Number(measured.expected.costUsd))).toBeLessThanOrEqual(Number(measured.expected.costUsd) * 0.05);
  });

  test('a part of a run (--only, --shard, --without) is measured instead', async () => {
    expect((await estimateCost(spec, config({ only: ['schema.'] }), at)).method).toBe('emulator-dry-run');
    expect((await estimateCost(spec, config({ shard: { index: 1, count: 2 } }), at)).method).toBe('emulator-dry-run');
  });
});
