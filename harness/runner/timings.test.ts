import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { main } from '#harness/cli/main.ts';
import type { RunRecord, RunSummary } from '#harness/results/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { startEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';

const tmp = tempDirs('svc-timings-');

test('a run reports where its time went: phases that add up to the wall time, and checks per second', async () => {
  const dir = tmp();
  const io = captureIO();
  const code = await main(['run', '--quiet', '--model', 'svc-v4-flash', '--only', 'schema.', '--report-dir', dir], io);
  expect(code, io.text()).toBe(0);
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary;
  const t = summary.timings!;
  expect(t).toBeDefined();
  const phases = t.startupMs + t.requestsMs + t.judgingMs + t.reportingMs + t.otherMs;
  expect(phases).toBeLessThanOrEqual(t.wallMs + 5); // each phase is rounded
  expect(phases).toBeGreaterThanOrEqual(t.wallMs - 5);
  expect(t.requestsMs).toBeGreaterThan(0);
  expect(t.startupMs).toBeGreaterThan(0);
  expect(t.checks).toBe(summary.totals.total);
  expect(t.checksPerSecond).toBeCloseTo(t.checks / (t.wallMs / 1000), 0);
  // Report paths in the summary are relative to it.
  const record = JSON.parse(readFileSync(join(dir, summary.cells[0]!.report), 'utf8')) as RunRecord;
  expect(record.timings).toEqual(t);
  // The final line is printed even with --quiet.
  expect(io.err.join('\n')).toMatch(new RegExp(`${t.checks} checks in \\d+\\.\\d s \\(${t.checksPerSecond} checks/s\\): start-up .*requests .*judging .*reporting`));
}, 120_000);

test('time spent waiting on the served probes is request time, not judging (an endpoint slow to answer them is not slow judging)', async () => {
  const { spec } = loadSpec();
  const emu = await startEmulator({ spec, apiKeys: ['sk-timings-probe'], latencyMs: 400 });
  process.env.SVC_TIMINGS_KEY = 'sk-timings-probe';
  try {
    const dir = tmp();
    const io = captureIO();
    expect(await main(['run', '--quiet', '--model', 'svc-v4-flash', '--only', 'endpoint', '--base-url', emu.url, '--api-key-env', 'SVC_TIMINGS_KEY', '--report-dir', dir], io)).toBe(0);
    const t = (JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary).timings!;
    // Every served check waits on its probe alone: 400 ms of latency at least, nothing to judge after it.
    expect(t.requestsMs).toBeGreaterThanOrEqual(400);
    expect(t.judgingMs).toBeLessThan(t.requestsMs);
  } finally {
    delete process.env.SVC_TIMINGS_KEY;
    await emu.close();
  }
}, 120_000);
