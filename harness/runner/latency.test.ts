import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { defaultModels } from '#harness/checks/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import { ADAPTIVE } from '#harness/transport/index.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { runChecks } from './runChecks.ts';

const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');

/**
 * A default run (adaptive concurrency, as the CLI runs without --concurrency) on a fresh emulator
 * answering as `emulator` says, behind a proxy that turns away requests above `maxInFlight` when given.
 */
async function runOn(emulator: Parameters<typeof emulatorTarget>[1], maxInFlight?: number) {
  const target = await emulatorTarget(spec, { now: NOW, ...emulator });
  const proxy = maxInFlight === undefined ? undefined : await startProxy(target.baseUrl, { maxInFlight });
  try {
    const at = proxy ? { ...target, baseUrl: proxy.url, messagesBaseUrl: target.messagesBaseUrl.replace(target.baseUrl, proxy.url) } : target;
    const config = emulatorRunConfig(at, defaultModels(spec), NOW, { concurrency: ADAPTIVE.initial, maxConcurrency: ADAPTIVE.max });
    return await runChecks(config);
  } finally {
    await proxy?.close();
    await target.close();
  }
}

/** Each (check, model)'s verdict and why, without what changes from one run to the next (ports, durations). */
const verdicts = (results: readonly CheckResult[]) =>
  Object.fromEntries(results.map((r) => [`${r.checkId}|${r.model}`, `${r.verdict} ${(r.reason ?? '').replace(/127\.0\.0\.1:\d+/g, 'HOST').replace(/\d+(\.\d+)? ?(ms|s)\b/g, 'N ms')}`]).sort());

describe('the same verdicts whatever the latency and the concurrency', () => {
  test('a run at 0 ms and one at 40 ms a round trip (streams 2 ms an event) judge every check alike', async () => {
    const [fast, slow] = await Promise.all([runOn({}), runOn({ latencyMs: 40, streamIntervalMs: 2 })]);
    expect(Object.keys(verdicts(fast.results)).length).toBeGreaterThan(200);
    expect(verdicts(slow.results)).toEqual(verdicts(fast.results));
  }, 120_000);

  test('an endpoint answering 429 above 6 requests in flight: the run adapts, no check fails for it, and the concurrency reached is at most 6', async () => {
    // Slow enough that the limit grows (adaptiveLimit.ts: a quick answer is no reason to), into the proxy's 429s.
    // One after the other: two runs racing for the CPU starve each other's answers into 429s on every try.
    const clean = await runOn({ latencyMs: 150, streamIntervalMs: 2 });
    const limited = await runOn({ latencyMs: 150, streamIntervalMs: 2 }, 6);
    // A request turned away on every try (the machine too busy to keep the run under the endpoint's
    // limit) is inconclusive, never a failure: any check that differs did so, and only so, for that.
    const expected = verdicts(clean.results);
    const got = verdicts(limited.results);
    const differ = Object.keys(expected).filter((k) => got[k] !== expected[k]);
    for (const k of differ) expect(got[k], k).toMatch(/^skip inconclusive: .* answered HTTP 429 \("not now"\) on each of its \d+ attempts/);
    expect(differ.length).toBeLessThanOrEqual(8); // a few of some 240, however busy the machine
    const { concurrency, retries } = limited.transport!;
    expect(retries).toBeGreaterThan(0); // it did meet the endpoint's limit...
    expect(concurrency.decreases).toBeGreaterThan(0); // ...came down on it...
    expect(concurrency.reached).toBeLessThanOrEqual(6); // ...and says where the endpoint held
    expect(concurrency.reached).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
