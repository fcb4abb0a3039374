import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { RENAMED_MODEL, startLoadProxy, type LoadProxy, type LoadProxyMode } from '#harness/testing/loadProxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { deadPort } from '#harness/testing/httpTestServer.ts';
import { startGatewayProxy } from '#harness/testing/gatewayProxy.ts';
import { LOAD_PROMPT_WORDS } from '#harness/load/drive.ts';
import { main } from './main.ts';

/**
 * Issue 40: `run --load 16` through a proxy in front of the emulator that misbehaves only beyond 8
 * requests in flight. Each way of breaking the contract under load fails the load check that judges
 * it (and no other load check); each way the description allows leaves the run green, every load
 * check judged.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-load-phase-');
const NOW = '2026-06-01T00:00:00Z';
const KEY = 'sk-load-phase-key-0123456789';
const KEY_VAR = 'SVC_LOAD_PHASE_KEY';
const MODEL = 'svc-v4-flash';

let emu: RunningEmulator;

beforeAll(async () => {
  // Each request held 40 ms, so that 16 at once are 16 in flight; no per-key limit in the way.
  emu = await startEmulator({ spec, apiKeys: [KEY], now: () => new Date(NOW), latencyMs: 40, streamIntervalMs: 1, concurrencyPerKey: 1000 });
  process.env[KEY_VAR] = KEY;
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await emu.close();
});

interface Ran {
  out: string;
  code: number;
  results: CheckResult[];
  stderr: string;
  proxy: LoadProxy;
}

async function runThrough(mode: LoadProxyMode, args: string[], beyond = 8): Promise<Ran> {
  const proxy = await startLoadProxy(emu.url, mode, beyond);
  const out = join(tmp(), mode);
  const io = captureIO();
  try {
    const code = await main(['run', '--base-url', proxy.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', MODEL, '--clients', 'none', '--runs', '1', '--report-dir', out, '--json', `${out}.json`, ...args], io);
    const all = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { records: { results: CheckResult[] }[] };
    return { out, code, results: all.records.flatMap((r) => r.results), stderr: io.err.join('\n'), proxy };
  } finally {
    await proxy.close();
  }
}

const LOAD_CHECKS = ['load.answers.conform', 'load.excess.refused-as-described', 'load.answers.not-crossed', 'load.streams.finished', 'load.requests.none-hung', 'load.endpoint.recovers'];
const verdicts = (run: Ran) => Object.fromEntries(run.results.filter((r) => r.checkId.startsWith('load.')).map((r) => [r.checkId, r.verdict === 'skip' ? `skip (${r.skipKind})` : r.verdict]));
/** Why each load check that did not pass did not: said beside a failed comparison, so a failure in CI says why. */
const whyNot = (run: Ran) => run.results.filter((r) => r.checkId.startsWith('load.') && r.verdict !== 'pass').map((r) => `${r.checkId}: ${r.reason ?? r.failures?.map((f) => f.message).join(' | ') ?? r.verdict}`).join('\n');

const BROKEN: [LoadProxyMode, string][] = [
  ['crossed', 'load.answers.not-crossed'],
  ['500', 'load.excess.refused-as-described'],
  ['cut', 'load.streams.finished'],
  ['hung', 'load.requests.none-hung'],
  ['html-429', 'load.excess.refused-as-described'],
  ['usage-dropped', 'load.answers.conform'],
  ['empty-200', 'load.excess.refused-as-described'],
  // Issue 48: named as the error envelope it is, never as an empty body (its evidence shows the error).
  ['error-200', 'load.excess.refused-as-described'],
  // Issue 47: streams asked for their usage, so a stream handed to another request counts another prompt's tokens.
  ['streams-crossed', 'load.answers.not-crossed'],
  // Issue 47: every answer under load is held to what its twin at rest is held to, the model it names too.
  ['model-renamed', 'load.answers.conform'],
];

describe('a proxy that breaks the contract beyond 8 requests in flight', () => {
  test.each(BROKEN)('%s: %s fails, and no other load check', async (mode, check) => {
    const run = await runThrough(mode, ['--load', '16', '--only', 'load.', '--timeout-ms', '1500']);
    expect(run.proxy.peak()).toBeGreaterThan(8);
    expect(run.proxy.misbehaved()).toBeGreaterThan(0);
    const v = verdicts(run);
    expect(Object.keys(v).sort()).toEqual([...LOAD_CHECKS].sort());
    expect(v[check]).toBe('fail');
    expect(Object.entries(v).filter(([id, verdict]) => id !== check && verdict === 'fail')).toEqual([]);
    const failed = run.results.find((r) => r.checkId === check)!;
    // Evidence and a reproducer, as any failure has.
    expect(failed.failures?.[0]?.evidence?.request.url).toContain(run.proxy.url);
    expect(run.code).toBe(failed.severity === 'must' ? 1 : 0);
    if (mode === 'streams-crossed') {
      expect(failed.severity).toBe('must');
      // Streams were among what crossed, told by the usage they sent once asked.
      expect(failed.failures?.map((f) => f.message).join('\n')).toMatch(/^a streamed request with \d+ in flight for prompt \d .*usage\.prompt_tokens \d+; that is what prompt \d/m);
    }
    if (mode === 'error-200' || mode === 'empty-200') {
      const said = failed.failures?.map((f) => f.message) ?? [];
      const causes = (JSON.parse(readFileSync(`${run.out}.json`, 'utf8')) as { summary: { causes: { message: string; headline: string }[] } }).summary.causes.filter((c) => c.message.includes('answered 200'));
      expect(causes.length).toBeGreaterThan(0);
      for (const text of [...said, ...causes.flatMap((c) => [c.message, c.headline])]) {
        if (mode === 'error-200') expect(text).toMatch(/was answered 200 with the error envelope \(rate_limit_error rate_limit_exceeded: "too many requests in flight"\): a refusal sent as a success/);
        else expect(text).toMatch(/was answered 200 with an empty body/);
      }
    }
    if (mode === 'model-renamed') {
      expect(failed.severity).toBe('must');
      expect(failed.failures?.map((f) => f.message).join('\n')).toMatch(new RegExp(`names model "${RENAMED_MODEL}".*answer\.(stream-)?model\.names-a-model-of-the-service`));
    }
  }, 60_000);
});

describe('a proxy that does what the description allows beyond 8 requests in flight', () => {
  test.each(['queued', '429', '503'] as const)('%s: the run is green, every load check judged', async (mode) => {
    const run = await runThrough(mode, ['--load', '16', '--only', 'load.', '--timeout-ms', '5000']);
    expect(run.proxy.peak()).toBeGreaterThan(8);
    expect(run.proxy.misbehaved()).toBeGreaterThan(0);
    expect(verdicts(run), whyNot(run)).toEqual(Object.fromEntries(LOAD_CHECKS.map((id) => [id, 'pass'])));
    expect(run.code).toBe(0);
    // The progress line names the steps, the requests in flight, answered and refused.
    expect(run.stderr).toMatch(/load {2}svc-v4-flash: step 4\/4, 16 in flight: \d+ sent, \d+ answered, \d+ refused/);
    // And its figures once the run has ended: information, not a verdict.
    expect(run.stderr).toMatch(/svc-v4-flash @ \S+ under load: up to 16 in flight, \d+ requests, \d+ answered 200, \d+ refused 429.*, TTFT p95 [\d.]+ ms at 16/);
  }, 60_000);
});

describe('crossing without --load', () => {
  test('a proxy handing non-streamed chat answers beyond 3 in flight to other requests fails an ordinary run', async () => {
    const run = await runThrough('crossed', ['--only', 'answer.requests.not-crossed'], 3);
    expect(run.proxy.misbehaved()).toBeGreaterThan(0);
    const r = run.results.find((x) => x.checkId === 'answer.requests.not-crossed')!;
    expect(r.verdict).toBe('fail');
    expect(r.severity).toBe('must');
    expect(r.failures?.[0]?.message).toMatch(/^answers crossed: /);
    expect(run.code).toBe(1);
    // No load phase was asked for, so none ran.
    expect(run.results.filter((x) => x.checkId.startsWith('load.'))).toEqual([]);
  }, 60_000);

  test('a proxy sending stream usage only when asked and handing streams beyond 3 in flight to other requests fails an ordinary run', async () => {
    const run = await runThrough('streams-crossed', ['--only', 'answer.requests.not-crossed'], 3);
    expect(run.proxy.misbehaved()).toBeGreaterThan(0);
    const r = run.results.find((x) => x.checkId === 'answer.requests.not-crossed')!;
    expect([r.verdict, r.severity]).toEqual(['fail', 'must']);
    expect(r.failures?.map((f) => f.message).join('\n')).toMatch(/^answers crossed: the prompt of \d+ words, streamed, was answered/m);
    expect(run.code).toBe(1);
  }, 60_000);

  test('the same check passes straight against the emulator', async () => {
    const run = await runThrough('queued', ['--only', 'answer.requests.not-crossed'], 1000);
    const r = run.results.find((x) => x.checkId === 'answer.requests.not-crossed');
    expect(r?.verdict).toBe('pass');
    // Every answer told apart, its streams by the usage they were asked for.
    expect(r?.judged).toMatchObject({ cases: 10 });
    expect(r?.judged).not.toHaveProperty('notJudged');
  }, 60_000);
});

describe('--load as a config key', () => {
  test('svc-conformance.yaml `load: 8` plans the load phase, and the record keeps it', async () => {
    const dir = tmp();
    const config = join(dir, 'svc-conformance.yaml');
    writeFileSync(config, 'load: 8\n');
    const out = join(dir, 'out');
    const code = await main(['run', '--config', config, '--now', NOW, '--model', MODEL, '--clients', 'none', '--only', 'load.requests', '--quiet', '--report-dir', out, '--json', `${out}.json`], captureIO());
    const all = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { records: { options: { load?: number }; results: CheckResult[] }[] };
    expect(all.records[0]!.options.load).toBe(8);
    expect(all.records[0]!.results.map((r) => [r.checkId, r.verdict])).toEqual([['load.requests.none-hung', 'pass']]);
    expect(code).toBe(0);
  }, 60_000);

  test('a value out of range is refused, naming the key', async () => {
    const dir = tmp();
    const config = join(dir, 'svc-conformance.yaml');
    writeFileSync(config, 'load: 100000\n');
    const io = captureIO();
    const code = await main(['run', '--config', config, '--quiet'], io);
    expect(code).toBe(2);
    expect(io.err.join('\n')).toMatch(/load/);
  });
});

describe('the cost of the load phase', () => {
  test('the estimate covers the phase: a budget below it refuses the run before anything is sent', async () => {
    const io = captureIO();
    const out = join(tmp(), 'budget');
    const code = await main(['run', '--now', NOW, '--model', MODEL, '--clients', 'none', '--only', 'load.', '--load', '64', '--budget-usd', '0.0002', '--report-dir', out], io);
    const said = io.err.join('\n');
    const requests = Number(/estimated cost [\d.]+ USD \((\d+) requests/.exec(said)?.[1]);
    // Each prompt once at rest, then two rounds of 16, 32 and 64 in flight, and at least one try after the peak.
    expect(requests).toBeGreaterThanOrEqual(LOAD_PROMPT_WORDS.length + 2 * (16 + 32 + 64) + 1);
    expect(said).toMatch(/is above --budget-usd 0\.0002/);
    expect(code).toBe(2);
  }, 60_000);
});

describe('crossing judged exactly in a gateway run (the harness as the upstream, answers paired by marker)', () => {
  async function throughGateway(mode: LoadProxyMode): Promise<{ code: number; result: CheckResult }> {
    const port = await deadPort();
    const gateway = await startGatewayProxy(`http://127.0.0.1:${port}`, 'transparent');
    const proxy = await startLoadProxy(gateway.url, mode);
    const out = join(tmp(), `gateway-${mode}`);
    try {
      const code = await main(['run', '--base-url', proxy.url, '--api-key-env', KEY_VAR, '--upstream-port', String(port), '--now', NOW, '--model', MODEL, '--clients', 'none', '--only', 'load.answers.not-crossed', '--load', '16', '--quiet', '--report-dir', out, '--json', `${out}.json`], captureIO());
      const all = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { records: { results: CheckResult[] }[] };
      return { code, result: all.records.flatMap((r) => r.results).find((r) => r.checkId === 'load.answers.not-crossed')! };
    } finally {
      await proxy.close();
      await gateway.close();
    }
  }

  test.each([['crossed', 'a'], ['streams-crossed', 'a streamed']] as const)('%s: answers swapped in front of the gateway fail, naming the upstream answer they were', async (mode, kind) => {
    const { code, result } = await throughGateway(mode);
    expect(result.verdict).toBe('fail');
    expect(result.failures?.[0]?.message).toMatch(new RegExp(`^${kind} request with \\d+ in flight .*was answered with what the upstream answered another request`));
    expect(code).toBe(1);
  }, 60_000);

  test('a transparent path passes, every answer paired with its own', async () => {
    const { result } = await throughGateway('queued');
    expect(result.verdict).toBe('pass');
    // Every answer under load, streams too, paired exactly: none left to counts.
    expect(result.reason).toMatch(/^(\d+) answers under load were each their own request's \(\1 paired by marker\)$/);
  }, 60_000);
});

describe('a recorded load phase', () => {
  test('replays at the N it was recorded at, and is not recorded at any other (never a pass on answers of another load)', async () => {
    const dir = tmp();
    const rec = join(dir, 'rec');
    const base = ['--now', NOW, '--model', MODEL, '--clients', 'none', '--only', 'load.requests', '--quiet'];
    expect(await main(['record', '--out', rec, '--load', '8', ...base, '--report-dir', join(dir, 'r0')], captureIO())).toBe(0);
    const replay = async (n: string) => {
      const out = join(dir, `r${n}`);
      const code = await main(['run', '--fixtures', rec, '--load', n, ...base, '--report-dir', out, '--json', `${out}.json`], captureIO());
      const all = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { records: { results: CheckResult[] }[] };
      return { code, result: all.records.flatMap((r) => r.results).find((r) => r.checkId === 'load.requests.none-hung')! };
    };
    const same = await replay('8');
    expect([same.result.verdict, same.code]).toEqual(['pass', 0]);
    const other = await replay('32');
    expect([other.result.verdict, other.result.skipKind]).toEqual(['skip', 'not-recorded']);
    expect(other.result.reason).toMatch(/drove a load phase of 8, not of 32; replay it with --load 8/);
  }, 60_000);
});
