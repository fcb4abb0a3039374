import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { systemClock } from '#harness/core/clock.ts';
import { runTargets, type RunSettings } from '#harness/runner/runTargets.ts';
import { RunStop } from '#harness/runner/runStop.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * A run in-process (a test, a program driving the CLI) leaves the process as it found it: every
 * listener it adds (SIGINT, SIGTERM, abort) is removed when it ends, and runs going on at once share
 * one listener per signal, so no MaxListenersExceededWarning is ever printed.
 */
const tmp = tempDirs('svc-listeners-');
const RUNS = 20;
const NOW = '2026-06-01T00:00:00Z';
const args = () => ['run', '--model', 'svc-v4-flash', '--only', 'usage.total.*', '--now', NOW, '--quiet', '--report-dir', tmp()];

/** How many listeners the process has, per event. */
function processListeners(): Record<string, number> {
  return Object.fromEntries(process.eventNames().map((e) => [String(e), process.listenerCount(e)]));
}

describe('listeners of in-process runs', () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });

  test(`${RUNS} runs one after another: the process has the listeners it had before`, async () => {
    const before = processListeners();
    for (let i = 0; i < RUNS; i++) expect(await main(args(), captureIO())).toBe(0);
    expect(processListeners()).toEqual(before);
    expect(warnings.map((w) => w.message)).toEqual([]);
  }, 120_000);

  test(`${RUNS} runs at once: one listener per signal while they go on, none after, and no warning`, async () => {
    const before = processListeners();
    const seen: number[] = [];
    const sample = setInterval(() => seen.push(process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')), 5);
    try {
      const codes = await Promise.all(Array.from({ length: RUNS }, () => main(args(), captureIO())));
      expect(codes).toEqual(Array(RUNS).fill(0));
    } finally {
      clearInterval(sample);
    }
    expect(Math.max(...seen)).toBe((before.SIGINT ?? 0) + 1);
    expect(processListeners()).toEqual(before);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  }, 120_000);

  test(`the runner ${RUNS} times with one stop signal: no abort listener is left on it`, async () => {
    const { spec } = loadSpec();
    const stop = new RunStop();
    const settings: RunSettings = { command: 'run', models: ['svc-v4-flash'], only: ['usage.total.*'], skip: [], strict: false, clients: [], clientsGate: false, repeat: 1, allowFlaky: false, runs: 1, seed: 1, concurrency: 4, now: new Date(NOW), quiet: true, version: 'test' };
    for (let i = 0; i < RUNS; i++) {
      const target = await emulatorTarget(spec, { now: new Date(NOW) });
      const run = await runTargets(spec, [{ target, modelMap: {}, headers: [], without: [] }], settings, { stop, calendar: systemClock, log: () => undefined });
      expect(run.records[0]!.results.filter((r) => r.verdict === 'pass').length).toBeGreaterThan(0);
    }
    expect(getEventListeners(stop.signal, 'abort')).toEqual([]);
  }, 120_000);
});
