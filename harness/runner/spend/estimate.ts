import type { CostEstimate } from '#harness/results/index.ts';
import { formatUsd } from '#harness/spec/money.ts';
import { costOfUse } from '#harness/spec/pricing.ts';
import type { Spec } from '#harness/spec/model.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import type { RunConfig } from '../runConfig.ts';
import { runSuites } from '../runVitest.ts';
import { NO_BOUND, addBound } from './requestBound.ts';
import { tokensOf } from './tokens.ts';

/**
 * What a run will cost, before it starts: the same plan (models, --only, --shard, --runs) run once
 * against a fresh embedded emulator, which costs nothing. Each request the checks send is counted:
 * the tokens the emulator's answers report, at the spec's prices, are the expected cost; its body
 * size and output cap give an upper bound. Prices are the spec's in force at `pricedAt`.
 */
export async function estimateCost(spec: Spec, config: RunConfig, pricedAt: Date, stop?: AbortSignal): Promise<CostEstimate> {
  const target = await emulatorTarget(spec, { now: new Date(config.referenceTime.value) });
  try {
    const { budget: _budget, recordDir: _recordDir, emptyBalanceKey: _empty, ...rest } = config;
    const dry: RunConfig = {
      ...rest,
      target: { kind: target.kind, baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl },
      apiKey: target.apiKey,
      // Same checks as the run: a 402 check runs only when the run has an empty-balance key.
      ...(config.emptyBalanceKey !== undefined && target.emptyBalanceKey !== undefined ? { emptyBalanceKey: target.emptyBalanceKey } : {}),
      modelMap: {},
    };
    const run = await runSuites(dry, stop ? { stop } : {});
    return estimateOf(spec, run, pricedAt);
  } finally {
    await target.close();
  }
}

/** The estimate from a finished (dry) run: expected from reported tokens, upper bound from the requests. */
export function estimateOf(spec: Spec, run: Pick<Awaited<ReturnType<typeof runSuites>>, 'results' | 'sent'>, pricedAt: Date): CostEstimate {
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
