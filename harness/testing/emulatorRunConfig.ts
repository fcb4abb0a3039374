import type { RunConfig } from '#harness/runner/runConfig.ts';
import { dryRunConfig } from '#harness/runner/spend/estimate.ts';
import type { Target } from '#harness/targets/target.ts';

/**
 * The RunConfig the CLI would give the checks for an embedded emulator target, with its defaults
 * (`run` without flags: --concurrency 4, --runs 10, --seed 1) unless `overrides` says otherwise.
 */
export function emulatorRunConfig(target: Target, models: string[], overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    ...dryRunConfig(models, new Date()),
    target: { kind: target.kind, baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl },
    apiKey: target.apiKey,
    ...(target.emptyBalanceKey !== undefined ? { emptyBalanceKey: target.emptyBalanceKey } : {}),
    referenceTime: { value: new Date().toISOString(), source: 'local-clock' },
    ...overrides,
  };
}
