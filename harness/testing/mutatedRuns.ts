// Test support: runs of the CLI, in this process, against the emulator behind a mutating proxy, each
// run with its own mutation (one proxy and one emulator serve them all, at once).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator } from '#harness/emulator/index.ts';
import { main } from '#harness/cli/main.ts';
import type { Spec } from '#harness/spec/model.ts';
import { captureIO } from './captureIO.ts';
import { MUTATION_HEADER, startMutatingProxy, type Mutator } from './mutatingProxy.ts';

/** One run: the mutation of its answers, the model, and the checks it runs (`--only`). */
export interface MutatedCase {
  mutator: Mutator;
  model: string;
  checks: readonly string[];
}

/** What a run gave: how many answers the proxy changed, and every result. */
export interface MutatedRun {
  changed: number;
  results: CheckResult[];
}

export interface MutatedRunsOptions {
  /** The spec the emulator serves (and the proxy reads routes from). */
  spec: Spec;
  cases: readonly MutatedCase[];
  /** The runs' clock (`--now`), and the emulator's. */
  now: string;
  /** The spec directory the harness judges with (`--spec`); default: the shipped one. */
  judgeWith?: string;
  /** Runs at once (default 4). */
  concurrency?: number;
}

const KEY = 'sk-mutated-runs-0123456789';
/** Each call reads the key from a variable of its own, so two calls in one process never unset each other's. */
let calls = 0;

/** Runs every case (`--runs 1`, no client checks) and returns their results in order. */
export async function runMutated(options: MutatedRunsOptions): Promise<MutatedRun[]> {
  const emulator = await startEmulator({ spec: options.spec, apiKeys: [KEY], now: () => new Date(options.now), streamIntervalMs: 0 });
  const proxy = await startMutatingProxy(options.spec, emulator.url, new Map(options.cases.map((c, i) => [String(i), c.mutator])));
  const dir = mkdtempSync(join(tmpdir(), 'svc-mutated-'));
  const keyVar = `SVC_MUTATED_RUNS_KEY_${++calls}`;
  process.env[keyVar] = KEY;
  const runs: MutatedRun[] = [];
  try {
    let next = 0;
    const one = async (i: number): Promise<void> => {
      const c = options.cases[i]!;
      const out = join(dir, String(i));
      const args = ['run', '--base-url', proxy.url, '--api-key-env', keyVar, '--now', options.now, '--model', c.model, '--only', c.checks.join(','), '--header', `${MUTATION_HEADER}: ${i}`, '--runs', '1', '--clients', 'none', '--quiet', '--report-dir', out, '--json', `${out}.json`];
      await main([...args, ...(options.judgeWith === undefined ? [] : ['--spec', options.judgeWith])], captureIO());
      const all = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { records: { results: CheckResult[] }[] };
      runs[i] = { changed: proxy.changed(String(i)), results: all.records.flatMap((r) => r.results) };
    };
    await Promise.all(
      Array.from({ length: options.concurrency ?? 4 }, async () => {
        while (next < options.cases.length) await one(next++);
      }),
    );
  } finally {
    delete process.env[keyVar];
    await proxy.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return runs;
}

/** The checks that failed at must in a run. */
export const mustFailures = (run: MutatedRun): CheckResult[] => run.results.filter((r) => r.verdict === 'fail' && r.severity === 'must');
