import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from '../main.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-merge-'));
// Shards of one run hit one endpoint, as shards on several CI machines hit one base URL.
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ spec: loadSpec().spec, now: () => new Date('2026-06-01T00:00:00Z') });
  process.env.SVC_MERGE_KEY = emu.apiKey;
});
afterAll(async () => {
  delete process.env.SVC_MERGE_KEY;
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

function reportsUnder(d: string): string[] {
  return readdirSync(d, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('report.json')).map((f) => join(d, f));
}

describe('svc-conformance merge', () => {
  test('two shards of a run merge into the run: every check once, the same verdicts', async () => {
    const common = ['run', '--quiet', '--base-url', emu.url, '--api-key-env', 'SVC_MERGE_KEY', '--model', 'svc-v4-flash', '--now', '2026-06-01T00:00:00Z', '--only', 'stream'];
    expect(await main([...common, '--report-dir', join(dir, 'whole')], captureIO())).toBe(0);
    expect(await main([...common, '--shard', '1/2', '--report-dir', join(dir, 's1')], captureIO())).toBe(0);
    expect(await main([...common, '--shard', '2/2', '--report-dir', join(dir, 's2')], captureIO())).toBe(0);
    const io = captureIO();
    expect(await main(['merge', ...reportsUnder(join(dir, 's1')), ...reportsUnder(join(dir, 's2')), '--report-dir', join(dir, 'merged')], io)).toBe(0);
    const verdicts = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { results: { checkId: string; verdict: string }[] }).results.map((r) => `${r.checkId}:${r.verdict}`).sort();
    const [whole] = reportsUnder(join(dir, 'whole'));
    const [merged] = reportsUnder(join(dir, 'merged'));
    expect(verdicts(merged!)).toEqual(verdicts(whole!));
    expect(io.out.join('\n')).toContain('merged 2 report(s) into 1 cell(s)');
  }, 120_000);

  test('the same shard twice is refused, naming the check: exit 2', async () => {
    const [s1] = reportsUnder(join(dir, 's1'));
    const io = captureIO();
    expect(await main(['merge', s1!, s1!, '--report-dir', join(dir, 'dup')], io)).toBe(2);
    expect(io.err.join('\n')).toMatch(/stream\.|twice|both/);
  });

  // Shards run on several machines each start their own embedded emulator, on a random port.
  let embeddedShards: Promise<void> | undefined;
  const runEmbeddedShards = () =>
    (embeddedShards ??= (async () => {
      const common = ['run', '--quiet', '--model', 'svc-v4-flash', '--now', '2026-06-01T00:00:00Z', '--only', 'stream'];
      for (const n of [1, 2]) expect(await main([...common, '--shard', `${n}/2`, '--report-dir', join(dir, `e${n}`), '--json', join(dir, `e${n}.json`)], captureIO())).toBe(0);
    })());

  test('shards of the embedded emulator (each on its own port) merge into one cell per model, under emulator/', async () => {
    await runEmbeddedShards();
    const ports = [1, 2].map((n) => (JSON.parse(readFileSync(join(dir, `e${n}.json`), 'utf8')) as { records: { target: { baseUrl: string } }[] }).records[0]!.target.baseUrl);
    expect(ports[0]).not.toBe(ports[1]);
    const io = captureIO();
    expect(await main(['merge', ...reportsUnder(join(dir, 'e1')), ...reportsUnder(join(dir, 'e2')), '--report-dir', join(dir, 'emerged')], io)).toBe(0);
    expect(io.out.join('\n')).toContain('merged 2 report(s) into 1 cell(s)');
    expect(io.out.join('\n')).toContain('svc-v4-flash @ emulator:');
    expect(reportsUnder(join(dir, 'emerged'))).toEqual([join(dir, 'emerged', 'emulator', 'svc-v4-flash', 'report.json')]);
    const summary = JSON.parse(readFileSync(join(dir, 'emerged', 'summary.json'), 'utf8')) as { outcome: string; cells: unknown[] };
    expect(summary).toMatchObject({ outcome: 'pass' });
    expect(summary.cells).toHaveLength(1);
  }, 120_000);

  test('the --json bundle a run writes ({ summary, records }) is accepted: its records are merged', async () => {
    await runEmbeddedShards();
    const io = captureIO();
    expect(await main(['merge', join(dir, 'e1.json'), join(dir, 'e2.json'), '--report-dir', join(dir, 'bundled')], io)).toBe(0);
    expect(io.out.join('\n')).toContain('merged 2 report(s) into 1 cell(s)');
    const results = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { results: { checkId: string; verdict: string }[] }).results.map((r) => `${r.checkId}:${r.verdict}`).sort();
    expect(results(join(dir, 'bundled', 'emulator', 'svc-v4-flash', 'report.json'))).toEqual(results(join(dir, 'emerged', 'emulator', 'svc-v4-flash', 'report.json')));
  }, 120_000);

  test('no file, or a file that is not a report: exit 2 with the reason', async () => {
    expect(await main(['merge'], captureIO())).toBe(2);
    const io = captureIO();
    expect(await main(['merge', join(dir, 'nope.json')], io)).toBe(2);
    expect(io.err.join('\n')).toContain('nope.json');
  });
});
