import type { RunConfig } from '#harness/runner/runConfig.ts';
import { dryRunConfig } from '#harness/runner/spend/estimate.ts';
import type { Target } from '#harness/targets/target.ts';

/**
 * The RunConfig the CLI would give the checks for an embedded emulator target started at `at`
 * (`emulatorTarget(spec, { now: at })`), judged at that instant (as `--now` does), with its defaults
 * (`run` without flags: --concurrency 4, --runs 10, --seed 1) unless `overrides` says otherwise.
 * Handed the instant, a test judges the same whatever day it runs.
 */
export function emulatorRunConfig(target: Target, models: string[], at: Date, overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    ...dryRunConfig(models, at),
    target: { kind: target.kind, baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl },
    apiKey: target.apiKey,
    ...(target.emptyBalanceKey !== undefined ? { emptyBalanceKey: target.emptyBalanceKey } : {}),
    ...overrides,
  };
}
