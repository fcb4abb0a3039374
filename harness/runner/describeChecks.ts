import { describe, inject, test } from 'vitest';
import type { TokenUse } from '#harness/core/outcome.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { fixtureRecorder } from '#harness/replay/fixtureFormat.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { createTransport } from '#harness/transport/index.ts';
import { createCheckContext, type Sender } from './checkContext.ts';
import { executeCheck } from './execute.ts';
import './meta.ts';
import { shardOf } from './plan.ts';
import type { RunConfig } from './runConfig.ts';

let sender: { config: RunConfig; sender: Sender } | undefined;

/** One transport per worker and run: the concurrency cap holds across every check. */
function senderFor(config: RunConfig): Sender {
  if (sender?.config !== config) {
    const { spec } = loadSpec(config.specDir);
    // Secret 0 is the key, secret 1 the empty-balance key: fixtures keep the index, never the key.
    const secrets = [config.apiKey, ...(config.emptyBalanceKey ? [config.emptyBalanceKey] : [])];
    const record = config.recordDir !== undefined ? fixtureRecorder(config.recordDir, config.target.baseUrl) : undefined;
    sender = { config, sender: createTransport({ secrets, concurrency: config.concurrency, retry: spec.errors.retry, ...(record ? { record } : {}) }) };
  }
  return sender.sender;
}

/**
 * The body of a suite file: one vitest test per (check, model) of an area, titled by the check id
 * inside a describe per model. Suites hold no assertion logic; the checks do.
 */
export function describeChecks(area: string): void {
  const config = inject('svcConformance');
  const { spec } = loadSpec(config.specDir);
  const plan = shardOf(buildRegistry(spec).plan(spec, config.models, area, config.only), config.shard);
  const models = [...new Set(plan.map((p) => p.model))];
  for (const model of models) {
    describe.concurrent(`${area} [${model}]`, () => {
      for (const { check } of plan.filter((p) => p.model === model)) {
        test(check.id, async ({ task, skip }) => {
          const usage: TokenUse = { promptTokens: 0, completionTokens: 0, cacheHitTokens: 0 };
          const ctx = createCheckContext(spec, config, senderFor(config), model, usage);
          const result = await executeCheck(check, ctx, usage, config.apiKeyEnv);
          task.meta.svcResult = result;
          if (result.verdict === 'skip' || result.verdict === 'unsupported') skip(`${result.verdict}: ${result.reason ?? ''}`);
          if (result.verdict === 'fail') throw new Error(result.failures?.map((f) => f.message).join('\n') ?? 'failed');
          if (result.verdict === 'error') throw new Error(result.reason ?? 'error');
        });
      }
    });
  }
  if (plan.length === 0) {
    test.skip(`${area}: no check selected`, () => undefined);
  }
}
