import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import type { RunRecord } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { startFlakyProxy } from '#harness/testing/flakyProxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

const { spec } = loadSpec();
const tmp = tempDirs('svc-repeat-');
const NOW = '2026-06-01T00:00:00Z';
const CHECK = 'usage.total.equals-prompt-plus-completion';

async function cli(args: string[]) {
  const dir = tmp();
  const io = captureIO();
  const code = await main(['run', '--report-dir', dir, '--json', join(dir, 'all.json'), '--now', NOW, ...args], io);
  const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { records: RunRecord[] };
  return { code, dir, io, records: all.records, results: all.records.flatMap((r) => r.results) };
}

const verdicts = (results: readonly CheckResult[]) => Object.fromEntries(results.map((r) => [`${r.checkId} ${r.model}`, r.verdict]));

describe('run --repeat N against the embedded emulator', () => {
  test('the emulator is deterministic: three runs give the verdicts of one, none flaky, each result over 3 runs', async () => {
    const once = await cli(['--quiet']);
    const thrice = await cli(['--quiet', '--repeat', '3']);
    expect(thrice.results.length).toBeGreaterThan(100);
    expect(verdicts(thrice.results)).toEqual(verdicts(once.results));
    expect(thrice.results.filter((r) => r.verdict === 'flaky')).toEqual([]);
    expect(thrice.code).toBe(once.code);
    for (const r of thrice.results) expect(r.repeat?.runs, r.checkId).toBe(3);
    const passed = thrice.results.find((r) => r.verdict === 'pass')!;
    expect(passed.repeat).toEqual({ runs: 3, passes: 3, fails: 0, passAtK: { '1': 1, '2': 1, '3': 1 }, passHatK: { '1': 1, '2': 1, '3': 1 } });
    expect(thrice.records.every((r) => r.options.repeat === 3)).toBe(true);
    expect(once.records.every((r) => r.options.repeat === undefined && r.results.every((x) => x.repeat === undefined))).toBe(true);
    // Every repetition sent its requests afresh: three runs spent three times the tokens of one.
    const tokens = (rs: RunRecord[]) => rs.reduce((n, r) => n + r.usage.promptTokens, 0);
    expect(tokens(thrice.records)).toBeGreaterThanOrEqual(tokens(once.records) * 3 * 0.95);
  }, 120_000);

  test('--budget-usd weighs N runs: a budget one run fits in refuses three before anything is sent', async () => {
    const args = ['--quiet', '--model', 'svc-v4-flash', '--only', 'usage.', '--budget-usd', '0.00002'];
    const once = await cli(args);
    expect(once.code).toBe(0);
    const cost = Number(once.records[0]!.estimate!.expected.costUsd);
    expect(cost * 3).toBeGreaterThan(0.00002);
    const io = captureIO();
    expect(await main(['run', '--report-dir', tmp(), '--now', NOW, ...args, '--repeat', '3'], io)).toBe(2);
    expect(io.err.join('\n')).toMatch(/the estimated cost 0\.0000\d+ USD is above --budget-usd 0\.00002/);
  }, 60_000);

  test('the progress lines say which run each result is from', async () => {
    const run = await cli(['--only', 'schema.chat-completion', '--model', 'svc-v4-flash', '--repeat', '2']);
    expect(run.io.err.join('\n')).toMatch(/\[ *\d+\/\d+\] pass +schema\.chat-completion\.matches-schema \(svc-v4-flash\) \[run 2\/2\]/);
  }, 60_000);
});

describe('run --repeat N against an endpoint that breaks one answer in three', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ spec, now: () => new Date(NOW) });
    process.env.SVC_FLAKY_KEY = emu.apiKey;
  });
  afterAll(async () => {
    delete process.env.SVC_FLAKY_KEY;
    await emu.close();
  });

  /** The check alone, on one model, through a fresh proxy (its counters from zero). */
  async function flakyRun(extra: string[]) {
    const proxy = await startFlakyProxy(emu.url);
    try {
      const run = await cli(['--base-url', proxy.url, '--api-key-env', 'SVC_FLAKY_KEY', '--model', 'svc-v4-flash', '--only', CHECK, ...extra]);
      return { ...run, broken: proxy.broken() };
    } finally {
      await proxy.close();
    }
  }

  test('a known-failures entry with an expected pass rate: 2 of 3 fits 0.6 (known, exit 0); it is significantly below 0.99 (Wilson 95% up to 0.94: exit 1)', async () => {
    const dir = tmp();
    const file = (rate: number) => {
      const f = join(dir, `known-${rate}.yaml`);
      writeFileSync(f, `known:\n  - check: ${CHECK}\n    reason: the gateway breaks one answer in three\n    pass_rate: ${rate}\n`);
      return f;
    };
    const fits = await flakyRun(['--repeat', '3', '--known', file(0.6)]);
    expect(fits.results[0]).toMatchObject({ verdict: 'flaky', repeat: { runs: 3, passes: 2 } });
    expect(fits.code).toBe(0);
    const below = await flakyRun(['--repeat', '3', '--known', file(0.99)]);
    expect(below.code).toBe(1);
  }, 60_000);

  test('one run per repetition: the check passes, passes, fails (the third answer is broken), so it is flaky, 2 of 3; a must-check flaky fails the run', async () => {
    const run = await flakyRun(['--repeat', '3']);
    // The served-route probes repeat their requests too, and their third answers are broken as well; they judge no usage.
    expect(run.broken).toBeGreaterThanOrEqual(1);
    expect(run.results.map((r) => r.checkId)).toEqual([CHECK]);
    const r = run.results[0]!;
    expect(r).toMatchObject({ verdict: 'flaky', severity: 'must', reason: 'flaky: 2 of 3 runs passed' });
    expect(r.repeat).toEqual({ runs: 3, passes: 2, fails: 1, passAtK: { '1': 0.6667, '2': 1, '3': 1 }, passHatK: { '1': 0.6667, '2': 0.3333, '3': 0 } });
    // The failing run's evidence: the broken answer, and a reproducer.
    expect(r.failures).toHaveLength(1);
    expect(r.failures![0]!.message).toMatch(/but total_tokens is \d+/);
    expect(r.failures![0]!.evidence?.response?.status).toBe(200);
    expect(r.failures![0]!.reproducer?.curl).toContain('${SVC_FLAKY_KEY}');
    expect(run.records[0]!.summary).toMatchObject({ total: 1, flaky: 1, fail: 0, pass: 0 });
    expect(run.code).toBe(1);
    expect(run.io.err.join('\n')).toContain(`${CHECK} (svc-v4-flash) is flaky: 2 of 3 runs passed`);
    expect(run.io.out.join('\n')).toContain('0 passed, 0 failed (0 must, 0 should, 0 advisory), 1 flaky, 0 skipped');
    // Every report shows it: JUnit as a failure, Markdown in its Flaky section.
    const cell = join(run.dir, new URL(run.records[0]!.target.baseUrl).host.replace(':', '_'), 'svc-v4-flash');
    expect(readFileSync(join(cell, 'junit.xml'), 'utf8')).toContain('<failure message="[must] flaky: 2 of 3 runs passed; ');
    expect(readFileSync(join(cell, 'report.md'), 'utf8')).toContain('## Flaky (1)');
  }, 60_000);

  test('with --allow-flaky the same run exits 0, the check still reported flaky', async () => {
    const run = await flakyRun(['--repeat', '3', '--allow-flaky']);
    expect(run.results[0]).toMatchObject({ checkId: CHECK, verdict: 'flaky', repeat: { passes: 2, fails: 1 } });
    expect(run.records[0]!.options).toMatchObject({ repeat: 3, allowFlaky: true });
    expect(run.code).toBe(0);
  }, 60_000);

  test('a single run judges one answer: the first, unbroken, passes', async () => {
    const run = await flakyRun([]);
    expect(run.results.map((r) => r.verdict)).toEqual(['pass']);
    expect(run.broken).toBe(0);
    expect(run.code).toBe(0);
  }, 60_000);

  test('the cost estimate printed before a live run is N times one run', async () => {
    const once = await flakyRun([]);
    const thrice = await flakyRun(['--repeat', '3']);
    const e1 = once.records[0]!.estimate!;
    const e3 = thrice.records[0]!.estimate!;
    expect(e1.requests).toBeGreaterThan(0);
    expect(e3.requests).toBe(e1.requests * 3);
    expect(e3.expected.promptTokens).toBe(e1.expected.promptTokens * 3);
    expect(thrice.io.err.join('\n')).toContain(`(${e3.requests} requests`);
  }, 60_000);
});

describe('bad --repeat values, and where --repeat cannot apply: exit 2, naming the flag', () => {
  test.each([
    [['run', '--repeat', '0'], /run: --repeat must be a positive integer from 1 to 1000 \(got "0"\)/],
    [['run', '--repeat', 'three'], /--repeat must be a positive integer .*"three"/],
    [['run', '--repeat', '-2'], /--repeat must be a positive integer .*"-2"/],
    [['run', '--repeat', '2', '--fixtures', '/nonexistent/svc-fixtures'], /--repeat asks the endpoint again, and a recording \(--fixtures\) answers with the bytes it recorded/],
    [['record', '--out', '/nonexistent/svc-out', '--repeat', '2'], /record: --repeat applies to `run`/],
  ])('%j', async (argv, message) => {
    const io = captureIO();
    expect(await main([...argv, '--report-dir', join(tmp(), 'r')], io)).toBe(2);
    expect(io.err.join('\n')).toMatch(message);
  });

  test('--repeat 1 is a plain run, for record and replay too', async () => {
    const dir = tmp();
    expect(await main(['record', '--out', join(dir, 'rec'), '--repeat', '1', '--quiet', '--only', 'schema.chat-completion', '--model', 'svc-v4-flash', '--now', NOW, '--report-dir', join(dir, 'a')], captureIO())).toBe(0);
    expect(await main(['run', '--fixtures', join(dir, 'rec'), '--fast', '--repeat', '1', '--quiet', '--only', 'schema.chat-completion', '--model', 'svc-v4-flash', '--report-dir', join(dir, 'b')], captureIO())).toBe(0);
  }, 60_000);
});
