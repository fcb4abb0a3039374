import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import { runChecks } from './runChecks.ts';
import { runRepeated } from './runRepeated.ts';

const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');

/** A few checks at a fixed limit under the emulator's own, so no answer is a 429 and each run sends the same requests. */
async function onEmulator<T>(run: (config: ReturnType<typeof emulatorRunConfig>) => Promise<T>): Promise<T> {
  const target = await emulatorTarget(spec, { now: NOW });
  try {
    return await run(emulatorRunConfig(target, ['svc-v4-flash'], NOW, { only: ['schema.'], concurrency: 2 }));
  } finally {
    await target.close();
  }
}

describe('runRepeated', () => {
  test('the requests and retries of every repetition add up; the concurrency is one repetition\'s, not a sum', async () => {
    const once = (await onEmulator((config) => runChecks(config))).transport!;
    const twice = (await onEmulator((config) => runRepeated({ repeat: 2, configOf: () => config }))).transport!;
    expect(once.requests).toBeGreaterThan(0);
    expect(twice.requests).toBe(2 * once.requests);
    expect(twice.retries).toBe(2 * once.retries);
    expect(twice.concurrency).toEqual(once.concurrency);
    expect(twice.concurrency).toMatchObject({ initial: 2, max: 2, adaptive: false, limit: 2 });
  }, 60_000);
});
