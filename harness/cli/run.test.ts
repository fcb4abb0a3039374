import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from './main.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';

const { spec } = loadSpec();
const tmp = tempDirs('svc-run-');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

async function cli(args: string[]) {
  const dir = tmp();
  const io = captureIO();
  const code = await main(['run', '--report-dir', dir, '--json', join(dir, 'all.json'), ...args], io);
  const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { records: { results: CheckResult[] }[] };
  return { code, dir, io, results: all.records.flatMap((r) => r.results) };
}

describe('the API key stays secret', () => {
  test('a canary key appears in no report, no reproducer and no line printed', async () => {
    const canary = 'sk-canary-7f3a9c2e1b4d6f8a0c2e4b6d8f1a3c5e';
    // A faulty endpoint, so failures with evidence and reproducers are written too.
    const emu = await startEmulator({ spec, apiKeys: [canary], now: () => new Date('2026-06-01T00:00:00Z'), faults: ['stream-no-done', 'error-envelope-flat'] });
    process.env.SVC_CANARY_KEY = canary;
    try {
      const run = await cli(['--base-url', emu.url, '--api-key-env', 'SVC_CANARY_KEY', '--now', '2026-06-01T00:00:00Z']);
      expect(run.results.length).toBeGreaterThan(50);
      // Reproducers exist, and name the variable instead of the key.
      const curls = run.results.flatMap((r) => r.failures ?? []).map((f) => f.reproducer?.curl ?? '');
      expect(curls.length).toBeGreaterThan(0);
      expect(curls.some((c) => c.includes('${SVC_CANARY_KEY}'))).toBe(true);
      for (const c of curls) expect(c).not.toContain('${SVC_API_KEY}');
      const written = filesUnder(run.dir);
      expect(written.some((f) => f.endsWith('report.html'))).toBe(true);
      for (const file of written) expect(readFileSync(file, 'utf8').includes(canary), file).toBe(false);
      expect(run.io.text().includes(canary)).toBe(false);
    } finally {
      delete process.env.SVC_CANARY_KEY;
      await emu.close();
    }
  }, 120_000);

  test('a live run without the key variable is a usage error naming the variable, exit 2', async () => {
    const io = captureIO();
    expect(await main(['run', '--base-url', 'http://127.0.0.1:9', '--api-key-env', 'SVC_NOT_SET_ANYWHERE'], io)).toBe(2);
    expect(io.err.join('\n')).toContain('SVC_NOT_SET_ANYWHERE');
  });
});

describe('targets from a config file', () => {
  test('svc-conformance.yaml names the base URL, the key variable and a model map', async () => {
    const emu = await startEmulator({ spec, now: () => new Date('2026-06-01T00:00:00Z') });
    process.env.SVC_CONFIG_KEY = emu.apiKey;
    const config = join(tmp(), 'svc-conformance.yaml');
    writeFileSync(config, `targets:\n  - base_url: ${emu.url}\n    api_key_env: SVC_CONFIG_KEY\n    model_map: { svc-v4-pro: svc-v4-pro }\n`);
    try {
      const run = await cli(['--config', config, '--only', 'schema.chat-completion', '--model', 'svc-v4-flash', '--now', '2026-06-01T00:00:00Z']);
      expect(run.code).toBe(0);
      expect(run.results.map((r) => r.verdict)).toContain('pass');
    } finally {
      delete process.env.SVC_CONFIG_KEY;
      await emu.close();
    }
  }, 60_000);
});

describe('lifecycle at a reference time', () => {
  const BEFORE = '2026-07-24T15:00:00Z';
  const AFTER = '2026-07-24T17:00:00Z';
  const lifecycle = (results: CheckResult[]) => results.filter((r) => r.checkId.includes('.state-at-reference-time'));

  test.each([BEFORE, AFTER])('--now %s against the embedded emulator on the same clock: every lifecycle check passes', async (now) => {
    const run = await cli(['--only', 'lifecycle', '--now', now]);
    expect(lifecycle(run.results).map((r) => r.verdict)).toEqual(['pass', 'pass']);
    expect(run.code).toBe(0);
  }, 60_000);

  test.each([
    [BEFORE, AFTER],
    [AFTER, BEFORE],
  ])('--now %s against an emulator whose clock reads %s: the lifecycle checks fail, exit 1', async (now, serverClock) => {
    const emu = await startEmulator({ spec, now: () => new Date(serverClock) });
    process.env.SVC_LIFECYCLE_KEY = emu.apiKey;
    try {
      const run = await cli(['--only', 'lifecycle', '--now', now, '--base-url', emu.url, '--api-key-env', 'SVC_LIFECYCLE_KEY']);
      expect(lifecycle(run.results).map((r) => r.verdict)).toEqual(['fail', 'fail']);
      expect(run.code).toBe(1);
    } finally {
      delete process.env.SVC_LIFECYCLE_KEY;
      await emu.close();
    }
  }, 60_000);

  test('within the tolerance window of the instant the verdict is indeterminate: skipped with the reason', async () => {
    const run = await cli(['--only', 'lifecycle', '--now', '2026-07-24T15:59:30Z']);
    for (const r of lifecycle(run.results)) expect(r).toMatchObject({ verdict: 'skip', reason: expect.stringContaining('indeterminate') });
  }, 60_000);

  test('so is every rule that holds only while an alias is not retired: 50 ms before the instant, none is judged either way', async () => {
    const run = await cli(['--only', 'legacy,lifecycle.*.state-at-reference-time', '--now', '2026-07-24T15:58:59.950Z']);
    const legacy = run.results.filter((r) => r.checkId.includes('legacy'));
    expect(legacy.length).toBeGreaterThan(2);
    for (const r of [...legacy, ...lifecycle(run.results)]) expect(r, r.checkId).toMatchObject({ verdict: 'skip', skipKind: 'inconclusive', reason: expect.stringContaining('indeterminate') });
  }, 60_000);
});
