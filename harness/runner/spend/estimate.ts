import type { CostEstimate } from '#harness/results/index.ts';
import { formatUsd } from '#harness/spec/money.ts';
import { costOfUse } from '#harness/spec/pricing.ts';
import { holdUpstream } from '#harness/gateway/held.ts';
import { recordedUpstream } from '#harness/gateway/upstream.ts';
import type { Spec } from '#harness/spec/model.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import type { RunConfig } from '../runConfig.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { runChecks } from '../runChecks.ts';
import type { SuitesRun } from '../suitesRun.ts';
import PROFILE from './costProfile.json' with { type: 'json' };
import { estimateFromProfile, profileCovers, profileOf, type CostProfile } from './costProfile.ts';
import { NO_BOUND, addBound } from './requestBound.ts';
import { tokensOf } from '#harness/core/tokens.ts';
import type { Stop } from '../runStop.ts';

/** The committed profile (`npm run profile:costs` measures it again). */
export const COST_PROFILE: CostProfile = PROFILE;

/**
 * What a run will cost, before it starts. A run of every check (no --only, --shard or --without) on
 * models the profile measured is estimated from costProfile.json: arithmetic, no second run. Any
 * other plan is measured: the same plan run once against a fresh embedded emulator, which costs
 * nothing and takes a fraction of a second in-process. Prices are the spec's in force at `pricedAt`.
 */
export async function estimateCost(spec: Spec, config: RunConfig, pricedAt: Date, stop?: Stop): Promise<CostEstimate> {
  // A gateway run adds its gateway.* checks, which the profile (a plain run) does not hold: measured.
  // So does a load phase (--load), whose requests depend on N.
  const whole = config.only === undefined && config.shard === undefined && (config.without ?? []).length === 0 && config.upstream === undefined && (config.load ?? 0) === 0;
  const checks = plainRunChecks(spec);
  if (whole && profileCovers(COST_PROFILE, checks, config.models)) return estimateFromProfile(spec, config.models, config.runs, COST_PROFILE, pricedAt);
  return estimateOf(spec, await dryRun(spec, config, stop), pricedAt);
}

/**
 * The plan of `config` run against a fresh embedded emulator at the run's reference time, with the
 * emulator's empty-balance key when the run has one (a 402 check runs only then).
 */
export async function dryRun(spec: Spec, config: RunConfig, stop?: Stop): Promise<SuitesRun> {
  const target = await emulatorTarget(spec, { now: new Date(config.referenceTime.value), ...(config.load ? { load: config.load } : {}) });
  // A gateway run's checks are sent as they will be, to an upstream that saw nothing: the real one must not hear of them.
  const upstream = config.upstream === undefined ? undefined : holdUpstream(recordedUpstream('dry run', [], true));
  try {
    const { budget: _budget, recordDir: _recordDir, emptyBalanceKey: _empty, upstream: _upstream, ...rest } = config;
    const dry: RunConfig = {
      ...rest,
      ...(upstream ? { upstream: upstream.ref } : {}),
      target: { kind: target.kind, baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl },
      apiKey: target.apiKey,
      ...(config.emptyBalanceKey !== undefined && target.emptyBalanceKey !== undefined ? { emptyBalanceKey: target.emptyBalanceKey } : {}),
      modelMap: {},
    };
    return await runChecks(dry, stop ? { stop } : {});
  } finally {
    await upstream?.close();
    await target.close();
  }
}

/**
 * Measures the profile: every check on every model of the spec, with the CLI's defaults (--runs 10,
 * --seed 1, --concurrency 4) and an empty-balance key, so every check that can send does, at `at`.
 */
export async function measureCostProfile(spec: Spec, at: Date): Promise<CostProfile> {
  const config = { ...dryRunConfig(Object.keys(spec.models), at), emptyBalanceKey: '' };
  const run = await dryRun(spec, config);
  return profileOf(config.referenceTime.value, config.runs, plainRunChecks(spec), run.results, run.sent);
}

/** A run's config with the CLI's defaults (--runs 10, --seed 1, --concurrency 4) at `at`; dryRun supplies the target and keys. */
export function dryRunConfig(models: string[], at: Date): RunConfig {
  return {
    target: { kind: 'emulator', baseUrl: '', messagesBaseUrl: '' },
    apiKey: '',
    apiKeyEnv: 'SVC_API_KEY',
    models,
    modelMap: {},
    concurrency: 4,
    strict: false,
    runs: 10,
    seed: 1,
    referenceTime: { value: at.toISOString(), source: 'flag' },
    lifecycleToleranceSeconds: 120,
  };
}

/** The estimate from a finished (dry) run: expected from reported tokens, upper bound from the requests. */
export function estimateOf(spec: Spec, run: Pick<SuitesRun, 'results' | 'sent'>, pricedAt: Date): CostEstimate {
  const models = [...new Set(run.sent.map((s) => s.model))];
  let expectedPico = 0n;
  let boundPico = 0n;
  const expected = { promptTokens: 0, completionTokens: 0 };
  let bound = NO_BOUND;
  for (const model of models) {
    const t = tokensOf(run.results.filter((r) => r.model === model));
    const b = run.sent.filter((s) => s.model === model).reduce((sum, s) => addBound(sum, s.bound), NO_BOUND);
    expected.promptTokens += t.promptTokens;
    expected.completionTokens += t.completionTokens;
    bound = addBound(bound, b);
    // Every prompt token of the bound a cache miss: the dearer input price.
    expectedPico += costOfUse(spec, model, t, pricedAt);
    boundPico += costOfUse(spec, model, { promptTokens: b.promptTokens, completionTokens: b.completionTokens, cacheHitTokens: 0 }, pricedAt);
  }
  return {
    method: 'emulator-dry-run',
    requests: run.sent.reduce((n, s) => n + s.count, 0),
    expected: { ...expected, costUsd: formatUsd(expectedPico, 6) },
    upperBound: { promptTokens: bound.promptTokens, completionTokens: bound.completionTokens, costUsd: formatUsd(boundPico, 6), uncappedRequests: bound.unbounded },
  };
}

/** The checks a run without an upstream or a load phase plans (the profile's): every check but the gateway's and the load phase's. */
const plainRunChecks = (spec: Spec): string[] => buildRegistry(spec).all().filter((c) => c.upstream !== true && c.phase !== 'load').map((c) => c.id);
