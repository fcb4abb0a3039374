import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator } from '#harness/emulator/index.ts';
import type { RunRecord } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { startHostileServer, type HostileServer } from '#harness/testing/hostileServer.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * Several targets in one run (issue 34) run at once, each with its own transport: every cell gets the
 * verdicts it gets alone, and a silent target holds back none of the others. Order, not wall time,
 * is asserted (the speed-up is a benchmark's: docs/performance.md).
 */
const { spec } = loadSpec();
const KEY_ENV = 'SVC_MANY_TARGETS_KEY';
const KEY = 'sk-many-targets-test-key-0123';
process.env[KEY_ENV] = KEY;
const NOW = '2026-06-01T00:00:00Z';
const freshDir = tempDirs('svc-many-targets-');
const emulators: Awaited<ReturnType<typeof startEmulator>>[] = [];
let silent: HostileServer;

beforeAll(async () => {
  for (let i = 0; i < 3; i++) emulators.push(await startEmulator({ spec, apiKeys: [KEY], faults: i === 1 ? ['usage-total-wrong'] : [], latencyMs: 20 }));
  silent = await startHostileServer('stall-before-headers', { spec, apiKey: KEY, everywhere: true, maxStallMs: 30_000 });
});
afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
  await silent.close();
});

async function run(urls: string[], extra: string[] = []): Promise<{ code: number; records: RunRecord[]; err: string }> {
  const dir = freshDir();
  const io = captureIO();
  const code = await main(['run', ...urls.flatMap((u) => ['--base-url', u]), '--api-key-env', KEY_ENV, '--model', 'svc-v4-flash', '--now', NOW, '--report-dir', join(dir, 'r'), '--json', join(dir, 'all.json'), ...extra], io);
  return { code, records: (JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { records: RunRecord[] }).records, err: io.err.join('\n') };
}

const verdicts = (results: readonly CheckResult[]) => Object.fromEntries(results.map((r) => [r.checkId, r.verdict]));

describe('several targets in one run', () => {
  test('run at once: each cell has the verdicts it has alone, one faulty target fails only its own cell, and the progress lines name the target', async () => {
    const urls = emulators.map((e) => e.url);
    const together = await run(urls);
    const alone = await Promise.all(urls.map((u) => run([u], ['--quiet'])));
    expect(together.records.map((r) => r.target.baseUrl)).toEqual(urls);
    together.records.forEach((record, i) => expect(verdicts(record.results), urls[i]).toEqual(verdicts(alone[i]!.records[0]!.results)));
    expect(together.records.map((r) => r.results.some((x) => x.verdict === 'fail'))).toEqual([false, true, false]);
    expect(together.code).toBe(1);
    // At once: every target had started before any had finished.
    const latestStart = Math.max(...together.records.map((r) => Date.parse(r.startedAt)));
    const earliestEnd = Math.min(...together.records.map((r) => Date.parse(r.finishedAt)));
    expect(latestStart).toBeLessThanOrEqual(earliestEnd);
    expect(together.err).toMatch(new RegExp(`\\[ *\\d+/\\d+\\] pass  \\S+ \\(svc-v4-flash at ${urls[2]!.replace(/[.]/g, '\\.')}\\)`));
  }, 120_000);

  test('one silent target among them: the others end in their own time with their own verdicts; the silent one as it does alone', async () => {
    const urls = [emulators[0]!.url, silent.url, emulators[2]!.url];
    // Bounds short enough for a test, long enough that a live target on a loaded machine never meets them.
    const flags = ['--timeout-ms', '3000', '--deadline-ms', '6000', '--quiet'];
    const together = await run(urls, flags);
    const [first, dead, last] = together.records;
    const aloneDead = await run([silent.url], flags);
    expect(verdicts(dead!.results)).toEqual(verdicts(aloneDead.records[0]!.results));
    expect(verdicts(first!.results)).toEqual(verdicts((await run([urls[0]!], ['--quiet'])).records[0]!.results));
    expect(first!.results.every((r) => r.verdict !== 'error')).toBe(true);
    expect(last!.results.every((r) => r.verdict !== 'error')).toBe(true);
    // The live ones finished before the silent one was given up on.
    expect(Date.parse(first!.finishedAt)).toBeLessThan(Date.parse(dead!.finishedAt));
    expect(Date.parse(last!.finishedAt)).toBeLessThan(Date.parse(dead!.finishedAt));
  }, 120_000);

  test('with --budget-usd they run one after another, each spending what the others left', async () => {
    const urls = [emulators[0]!.url, emulators[2]!.url];
    const { records, code } = await run(urls, ['--budget-usd', '1', '--quiet']);
    expect(code).toBe(0);
    expect(Date.parse(records[0]!.finishedAt)).toBeLessThanOrEqual(Date.parse(records[1]!.startedAt));
  }, 120_000);

  test('beyond one machine: one job per target and shard (docs/ci/matrix.yml), merged, gives the verdicts of one run over every target; a missing shard of one target is refused, naming it', async () => {
    const urls = [emulators[0]!.url, emulators[1]!.url];
    const common = ['--api-key-env', KEY_ENV, '--model', 'svc-v4-flash', '--now', NOW, '--only', 'stream', '--quiet'];
    const whole = freshDir();
    await main(['run', ...urls.flatMap((u) => ['--base-url', u]), ...common, '--report-dir', whole, '--json', join(whole, 'all.json')], captureIO());
    const jobs: string[] = [];
    for (const url of urls) {
      for (const shard of ['1/2', '2/2']) {
        const d = freshDir();
        await main(['run', '--base-url', url, ...common, '--shard', shard, '--report-dir', join(d, 'r'), '--json', join(d, 'run.json')], captureIO());
        jobs.push(join(d, 'run.json'));
      }
    }
    const merged = freshDir();
    const io = captureIO();
    const mergedCode = await main(['merge', ...jobs, '--report-dir', join(merged, 'r')], io);
    expect(mergedCode, io.text()).toBeLessThan(2);
    expect(io.out.join('\n')).toContain('merged 4 report(s) into 2 cell(s)');
    // Each cell's report.json under a report directory, by target.
    const cells = (d: string) => Object.fromEntries(readdirSync(d, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('report.json')).map((f) => JSON.parse(readFileSync(join(d, f), 'utf8')) as RunRecord).map((r) => [r.target.baseUrl, Object.fromEntries(Object.entries(verdicts(r.results)).sort())]));
    expect(Object.keys(cells(whole))).toHaveLength(2);
    expect(cells(join(merged, 'r'))).toEqual(cells(whole));
    const missing = captureIO();
    expect(await main(['merge', ...jobs.slice(0, 3), '--report-dir', join(freshDir(), 'r')], missing)).toBe(2);
    expect(missing.text()).toContain('shard 2/2 is missing');
    expect(missing.text()).toContain(urls[1]!.replace('http://', ''));
  }, 120_000);

  test('--max-in-flight is checked as its flag says', async () => {
    const io = captureIO();
    expect(await main(['run', '--max-in-flight', '0', '--quiet'], io)).toBe(2);
    expect(io.text()).toContain('--max-in-flight must be a positive integer from 1 to 4096');
  });
});
