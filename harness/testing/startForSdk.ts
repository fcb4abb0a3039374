import { loadSpec } from '#harness/spec/load.ts';
import { startEmulator, type RunningEmulator, type StartOptions } from '#harness/emulator/index.ts';

/** Before the legacy aliases retire (2026-07-24 15:59 UTC), so svc-chat is still listed and served. */
export const SDK_TEST_NOW = new Date('2026-06-01T00:00:00Z');

/** The key every SDK test client authenticates with. */
export const SDK_TEST_KEY = 'sk-test-sdk-0000000000000000';

/** A key of the right shape that the emulator does not know. */
export const SDK_WRONG_KEY = 'sk-test-sdk-wrong-0000000000';

/**
 * Starts the emulator for an SDK test: the real spec, a fixed clock, one known key. `options`
 * override any of these (e.g. `concurrencyPerKey: 0` for the 429 tests).
 */
export async function startForSdk(options: Partial<Omit<StartOptions, 'spec'>> = {}): Promise<RunningEmulator> {
  const { spec } = loadSpec();
  return startEmulator({ spec, now: () => SDK_TEST_NOW, apiKeys: [SDK_TEST_KEY], ...options });
}
