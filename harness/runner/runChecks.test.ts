import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { defaultModels } from '#harness/checks/index.ts';
import type { FaultId } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import { planRun } from './plan.ts';
import type { RunConfig } from './runConfig.ts';
import { runChecks } from './runChecks.ts';
import { runSuites } from './runVitest.ts';
import type { SuitesOptions, SuitesRun } from './suitesRun.ts';
import { graced } from './runStop.ts';

const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');
const key = (r: { checkId: string; model: string }) => `${r.checkId}|${r.model}`;

/** One executor on a fresh embedded emulator (with `faults`): each path gets an emulator of its own, in the same state. */
async function onEmulator(executor: (config: RunConfig, options?: SuitesOptions) => Promise<SuitesRun>, faults: FaultId[], overrides: Partial<RunConfig> = {}, options?: SuitesOptions) {
  const target = await emulatorTarget(spec, { now: NOW, faults });
  try {
    const config = emulatorRunConfig(target, defaultModels(spec), NOW, overrides);
    return { config, run: await executor(config, options) };
  } finally {
    await target.close();
  }
}

/** What a result says, without what changes from one run to the next: ports, durations, timings in messages. */
function verdictOf(r: CheckResult) {
  const plain = (text: string | undefined) => text?.replace(/127\.0\.0\.1:\d+/g, 'HOST').replace(/\d+(\.\d+)? ?(ms|s)\b/g, 'N ms');
  return { verdict: r.verdict, reason: plain(r.reason), failures: r.failures?.map((f) => plain(f.message)) };
}

const byPair = (results: readonly CheckResult[]) => Object.fromEntries(results.map((r) => [key(r), verdictOf(r)]));

describe('runChecks (in-process) and runSuites (vitest) give the same verdicts', () => {
  test.each([['the clean emulator', []], ['completion-wrong-object', ['completion-wrong-object']]] as [string, FaultId[]][])(
    'every check on the default models, %s',
    async (_name, faults) => {
      const [inProcess, suites] = await Promise.all([onEmulator(runChecks, faults), onEmulator(runSuites, faults)]);
      const planned = planRun(spec, inProcess.config).map((p) => key({ checkId: p.check.id, model: p.model })).sort();
      expect(inProcess.run.results.map(key).sort()).toEqual(planned);
      expect(suites.run.results.map(key).sort()).toEqual(planned);
      expect(byPair(inProcess.run.results)).toEqual(byPair(suites.run.results));
      // The same requests per check, and the same tokens reported.
      const sent = (run: SuitesRun) => run.sent.reduce((n, s) => n + s.count, 0);
      expect(sent(inProcess.run)).toBe(sent(suites.run));
      // The same tokens: totals, since a shared sample's go to whichever check sent it, and without the
      // caching checks, whose prompts vary from one run to the next (what the emulator's cache holds).
      const tokens = (run: SuitesRun) => run.results.filter((r) => r.area !== 'caching').reduce((n, r) => n + (r.tokens?.promptTokens ?? 0) + (r.tokens?.completionTokens ?? 0), 0);
      expect(tokens(inProcess.run)).toBeGreaterThan(0);
      expect(tokens(inProcess.run)).toBe(tokens(suites.run));
      if (faults.length > 0) expect(inProcess.run.results.filter((r) => r.verdict === 'fail').length).toBeGreaterThan(0);
      for (const run of [inProcess.run, suites.run]) {
        expect(run.cancelled).toBe(false);
        expect(run.firstCheckAt).toBeLessThan(run.lastCheckAt!);
        expect(run.requestMs).toBeGreaterThan(0);
      }
    },
    180_000,
  );
});

describe('runSuites: the suites are an adapter over runChecks', () => {
  test('a stop reaches the one runner: the checks not started are not run, and the run says it was cancelled', async () => {
    const target = await emulatorTarget(spec, { now: NOW, latencyMs: 200 });
    try {
      const config = emulatorRunConfig(target, defaultModels(spec), NOW);
      const run = await runSuites(config, { stop: graced(AbortSignal.timeout(3_000)) });
      expect(run.cancelled).toBe(true);
      // The run stopped with the stop, not after every check (at 200 ms a round trip the plan takes 12 s or more):
      // counted, not timed, so a busy machine cannot fail it.
      expect(run.results.length).toBeLessThan(planRun(spec, config).length);
    } finally {
      await target.close();
    }
  }, 120_000);
});

describe('runChecks', () => {
  test('progress counts each result as it comes; the timing facts bracket the checks', async () => {
    const seen: number[] = [];
    const before = performance.now();
    const { run } = await onEmulator(runChecks, [], { models: ['svc-v4-flash'], only: ['schema.'] }, { progress: (_r, n) => seen.push(n) });
    expect(run.results.length).toBeGreaterThan(1);
    expect(seen).toEqual(run.results.map((_, i) => i + 1));
    expect(run.firstCheckAt).toBeGreaterThanOrEqual(before);
    expect(run.lastCheckAt).toBeLessThanOrEqual(performance.now());
    expect(run.requestMs).toBeLessThanOrEqual(run.lastCheckAt! - run.firstCheckAt! + 1);
    expect(run.sent.map(key).sort()).toEqual(run.results.map(key).sort());
  }, 60_000);

  test('a stop lets the running checks finish and starts no other', async () => {
    const stop = new AbortController();
    const { config, run } = await onEmulator(runChecks, [], { models: ['svc-v4-flash'], concurrency: 2 }, { stop: graced(stop.signal), progress: (_r, n) => n === 3 && stop.abort() });
    expect(run.cancelled).toBe(true);
    // The checks running when the stop came finish (twice the limit run at once: at most three more
    // besides the third); nothing starts after.
    expect(run.results.length).toBeGreaterThanOrEqual(3);
    expect(run.results.length).toBeLessThanOrEqual(6);
    expect(run.results.length).toBeLessThan(planRun(spec, config).length);
  }, 60_000);

  test('a stop before the run starts runs nothing', async () => {
    const { run } = await onEmulator(runChecks, [], { models: ['svc-v4-flash'] }, { stop: graced(AbortSignal.abort()) });
    expect(run).toMatchObject({ results: [], sent: [], cancelled: true });
    expect(run.firstCheckAt).toBeUndefined();
  }, 60_000);

  test('two targets run at once in one process never share an answer', async () => {
    const only = { models: ['svc-v4-flash'], only: ['schema.chat-completion.*'] };
    const [clean, broken] = await Promise.all([onEmulator(runChecks, [], only), onEmulator(runChecks, ['completion-wrong-object'], only)]);
    const verdicts = (run: SuitesRun) => run.results.filter((r) => r.checkId === 'schema.chat-completion.matches-schema').map((r) => r.verdict);
    expect(verdicts(clean.run)).toEqual(['pass']);
    expect(verdicts(broken.run)).toEqual(['fail']);
  }, 60_000);
});

/** The modules `file` loads when imported: its static value imports, followed through the harness (type-only imports are erased). */
function loadedBy(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  if (!file.endsWith('.ts') || !existsSync(file)) return seen;
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
    const spec = m[1]!;
    const target = spec.startsWith('#harness/') ? resolve(HARNESS, spec.slice('#harness/'.length)) : spec.startsWith('.') ? resolve(dirname(file), spec) : spec;
    loadedBy(target, seen);
  }
  return seen;
}

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '..');

test('the CLI\'s run loop loads no vitest: start-up is the harness\'s own modules (the vitest path is runVitest.ts)', () => {
  const loaded = [...loadedBy(resolve(HARNESS, 'runner/runTargets.ts'))];
  expect(loaded.filter((m) => /^(vitest|@vitest\/|vite$)/.test(m))).toEqual([]);
  expect(loaded).toContain(resolve(HARNESS, 'runner/runChecks.ts'));
  // The rule can fail: the vitest path is caught.
  expect([...loadedBy(resolve(HARNESS, 'runner/runVitest.ts'))]).toContain('vitest/node');
});
