import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { checkBoundMs, DEFAULT_TIMING, timingOf } from '#harness/transport/timing.ts';
import { rampChain, recoveryBoundMs, recoverySeconds } from '#harness/load/drive.ts';
import { runCeiling, SETUP_MS } from './runCeiling.ts';
import { planRun } from './plan.ts';
import type { RunSettings } from './runConfig.ts';

const { spec } = loadSpec();
const base: RunSettings = { command: 'run', models: ['svc-v4-flash'], only: [], skip: [], strict: false, clients: [], clientsGate: false, repeat: 1, allowFlaky: false, runs: 10, seed: 1, concurrency: 4, maxConcurrency: 64, quiet: true, version: 'test' };
const checks = (s: RunSettings) => planRun(spec, s).filter((p) => p.check.phase !== 'load').length;

describe('runCeiling: the most a run may take, from its settings', () => {
  test('the checks in waves of twice the limit, each within the per-check bound, and the start-up', () => {
    const c = runCeiling(spec, [{}], base, false);
    const waves = Math.ceil(checks(base) / 128);
    expect(c.ms).toBe(waves * checkBoundMs(DEFAULT_TIMING) + SETUP_MS);
    expect(c.parts[0]).toBe(`${checks(base)} check runs, up to 128 at a time, each within 15 min: ${waves * 15} min`);
  });

  test('it moves with each setting: fewer at a time, longer timeouts, --repeat and --load raise it', () => {
    const at = (s: Partial<RunSettings>) => runCeiling(spec, [{}], { ...base, ...s }, false).ms;
    const plain = at({});
    expect(at({ concurrency: 1, maxConcurrency: 1 })).toBe(Math.ceil(checks(base) / 2) * checkBoundMs(DEFAULT_TIMING) + SETUP_MS);
    expect(at({ timeoutMs: 400_000 })).toBeGreaterThan(plain);
    expect(at({ repeat: 3 })).toBe(3 * (plain - SETUP_MS) + SETUP_MS);
    const t = timingOf({});
    const request = t.connectMs + t.headersMs + 30_000 + 16 * 100;
    expect(at({ load: 16 })).toBe(plain + rampChain(16) * request + recoveryBoundMs(spec) + request);
    expect(runCeiling(spec, [{}], { ...base, load: 16 }, false).parts).toContain(`the load phase on 1 model, each within ${Math.round((rampChain(16) * request + recoveryBoundMs(spec) + request) / 60_000)} min`);
  });

  test('targets at once take the longest of theirs; one after another, the sum', () => {
    const one = runCeiling(spec, [{}], base, false).ms - SETUP_MS;
    expect(runCeiling(spec, [{}, {}], base, true).ms).toBe(one + SETUP_MS);
    expect(runCeiling(spec, [{}, {}], base, false).ms).toBe(2 * one + SETUP_MS);
  });

  test('the recovery is bounded by the back-off cap (or the window without a Retry-After, if longer), from the spec', () => {
    expect(recoveryBoundMs(spec)).toBe(Math.max(spec.errors.retry.max_delay_seconds, recoverySeconds(spec)) * 1000);
    // 16: 4 at rest, then 2 rounds at 4, 8 and 16 in flight.
    expect(rampChain(16)).toBe(4 + 2 + 2 + 2);
  });
});
