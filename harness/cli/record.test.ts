import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator } from '#harness/emulator/index.ts';
import type { FixtureExchange } from '#harness/replay/fixtureFormat.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from './main.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { createAjv } from '#harness/derive/validators/createAjv.ts';

const { spec } = loadSpec();
const tmp = tempDirs('svc-record-');

async function cli(command: 'run' | 'record', args: string[]) {
  const dir = tmp();
  const io = captureIO();
  const code = await main([command, '--quiet', '--report-dir', dir, '--json', join(dir, 'all.json'), ...args], io);
  const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { records: { target: { baseUrl: string }; results: CheckResult[] }[] };
  const verdicts = Object.fromEntries(all.records.flatMap((r) => r.results).map((r) => [`${r.checkId} ${r.model}`, r.verdict]));
  return { code, io, all, verdicts, results: all.records.flatMap((r) => r.results) };
}

const exchangeFiles = (dir: string) => readdirSync(join(dir, 'exchanges')).map((f) => join(dir, 'exchanges', f));

describe('record, then replay', () => {
  test('recorded against the emulator with a canary key: no file holds the key, the replay gives the same verdicts and exit 0, an edited fixture fails its check with exit 1', async () => {
    const canary = 'sk-canary-5e1d0c9b8a7f6e5d4c3b2a1908f7e6d5';
    const emu = await startEmulator({ spec, apiKeys: [canary], now: () => new Date('2026-06-01T00:00:00Z') });
    const out = tmp();
    process.env.SVC_RECORD_CANARY = canary;
    let recorded: Awaited<ReturnType<typeof cli>>;
    try {
      recorded = await cli('record', ['--out', out, '--base-url', emu.url, '--api-key-env', 'SVC_RECORD_CANARY', '--model', 'svc-v4-flash', '--now', '2026-06-01T00:00:00Z']);
    } finally {
      delete process.env.SVC_RECORD_CANARY;
      await emu.close();
    }
    expect(recorded.code).toBe(0);
    const files = [join(out, 'manifest.json'), ...exchangeFiles(out)];
    expect(files.length).toBeGreaterThan(50);
    const validate = createAjv().compile(JSON.parse(readFileSync(new URL('../../fixtures/fixture.schema.json', import.meta.url), 'utf8')) as object);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text.includes(canary), file).toBe(false);
      expect(validate(JSON.parse(text)), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { clock: string; baseUrl: string };
    expect(manifest).toMatchObject({ clock: '2026-06-01T00:00:00.000Z', baseUrl: emu.url });

    // The emulator is gone: the replay can only be answered by the recording, on loopback. A
    // tripwire listens where the recorded endpoint was and counts any connection the replay makes.
    let connections = 0;
    const tripwire = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => tripwire.listen(Number(new URL(emu.url).port), '127.0.0.1', resolve));
    const replayed = await cli('run', ['--fixtures', out, '--model', 'svc-v4-flash']).finally(() => new Promise((resolve) => tripwire.close(resolve)));
    expect(connections).toBe(0);
    expect(replayed.code, replayed.io.text()).toBe(0);
    expect(replayed.verdicts).toEqual(recorded.verdicts);
    expect(new URL(replayed.all.records[0]!.target.baseUrl).hostname).toBe('127.0.0.1');
    for (const r of replayed.results) for (const f of r.failures ?? []) expect(f.message).not.toContain('fixture_not_found');

    // Break a rule in the recording: the streams lose their final `[DONE]`.
    for (const file of exchangeFiles(out)) {
      const fx = JSON.parse(readFileSync(file, 'utf8')) as FixtureExchange;
      const events = fx.response?.events;
      if (events?.at(-1)?.data !== '[DONE]') continue;
      events.pop();
      writeFileSync(file, `${JSON.stringify(fx, null, 2)}\n`);
    }
    const broken = await cli('run', ['--fixtures', out, '--model', 'svc-v4-flash', '--fast']);
    expect(broken.code).toBe(1);
    expect(broken.verdicts['stream.events.done-last svc-v4-flash']).toBe('fail');
    expect(recorded.verdicts['stream.events.done-last svc-v4-flash']).toBe('pass');
  }, 120_000);

  test('record needs --out; --fixtures takes no other target', async () => {
    const io = captureIO();
    expect(await main(['record', '--model', 'svc-v4-flash'], io)).toBe(2);
    expect(io.text()).toContain('--out DIR is required');
    expect(await main(['run', '--fixtures', tmp(), '--base-url', 'http://127.0.0.1:1'], captureIO())).toBe(2);
    expect(await main(['run', '--fixtures', tmp()], captureIO())).toBe(2);
  });

  test('the embedded emulator is recorded when no --base-url is given', async () => {
    const out = tmp();
    const run = await cli('record', ['--out', out, '--model', 'svc-v4-flash', '--now', '2026-06-01T00:00:00Z', '--only', 'stream.events']);
    expect(run.code).toBe(0);
    expect(exchangeFiles(out).length).toBeGreaterThan(0);
    const replay = await cli('run', ['--fixtures', out, '--model', 'svc-v4-flash', '--only', 'stream.events', '--fast']);
    expect(replay.verdicts).toEqual(run.verdicts);
  }, 60_000);
});

/**
 * Issue 19, item 3: a recording answers only what it recorded. Its manifest names the models and,
 * per model, the checks it holds; replaying another model is a usage error, and a check it never
 * ran is skipped "not recorded", never answered with another check's or model's bytes.
 */
describe('a replay answers only what it recorded', () => {
  test('a flash recording: --model svc-v4-pro exits 2 naming svc-v4-flash; without --model, flash alone, and every check not recorded skipped as not-recorded', async () => {
    const out = tmp();
    const recorded = await cli('record', ['--out', out, '--model', 'svc-v4-flash', '--now', '2026-06-01T00:00:00Z', '--only', 'stream.events']);
    expect(recorded.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { models: string[]; checks: Record<string, string[]> };
    expect(manifest.models).toEqual(['svc-v4-flash']);
    expect(manifest.checks).toEqual({ 'svc-v4-flash': recorded.results.map((r) => r.checkId).sort() });

    const io = captureIO();
    expect(await main(['run', '--fixtures', out, '--model', 'svc-v4-pro', '--quiet'], io)).toBe(2);
    expect(io.text()).toContain(`run: --fixtures ${out} recorded svc-v4-flash only; --model svc-v4-pro was never recorded. Replay with --model svc-v4-flash, or record svc-v4-pro.`);

    // No --model and no --only: the recorded model, every check of the plan, judged only where recorded.
    const replayed = await cli('run', ['--fixtures', out, '--fast']);
    expect(new Set(replayed.results.map((r) => r.model))).toEqual(new Set(['svc-v4-flash']));
    const held = new Set(manifest.checks['svc-v4-flash']);
    const others = replayed.results.filter((r) => !held.has(r.checkId));
    expect(others.length).toBeGreaterThan(50);
    for (const r of others) {
      expect(r.verdict, r.checkId).toBe('skip');
      expect(r.skipKind, r.checkId).toBe('not-recorded');
      expect(r.reason, r.checkId).toMatch(/^not recorded: /);
    }
    for (const r of replayed.results.filter((x) => held.has(x.checkId))) expect(r.verdict, r.checkId).toBe(recorded.verdicts[`${r.checkId} ${r.model}`]);
  }, 60_000);
});

