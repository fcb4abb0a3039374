/**
 * A full default run at realistic latency (`npm run bench:latency`): the embedded emulator answers
 * each request after LATENCY ms and spaces stream events 20 ms apart (50 tokens a second), and
 * `svc-conformance run --base-url` (every check, every default model, the default adaptive
 * concurrency) runs against it in a fresh process. First at 0 ms, the reference; then at 800 and
 * 200 ms. Prints the wall time, the requests the endpoint served, the concurrency the run reached,
 * the ratio to the floor a run of that many requests has at that latency and the cap (requests x
 * latency / cap), and whether every (check, model) got the verdict it got at 0 ms. Nothing is
 * asserted: a timed test would be flaky on a shared machine (latency.test.ts holds the verdicts).
 *
 * BENCH_LATENCIES (default "800,200"), BENCH_CONCURRENCY (default: none, the run's adaptive limit),
 * BENCH_CLIENTS (default: none given, the run's default clients; e.g. `none`, or every client),
 * BENCH_RUNS (default: the run's 10; each property check's values: how the time scales with requests).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '#harness/emulator/index.ts';
import { startLatentEmulator, type MeasuredRun } from './latentEmulator.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { ADAPTIVE } from '#harness/transport/index.ts';
import { timeProcess } from './timeProcess.ts';

const KEY_ENV = 'SVC_BENCH_KEY';
const latencies = (process.env.BENCH_LATENCIES ?? '800,200').split(',').map(Number);
const fixed = process.env.BENCH_CONCURRENCY;
const clients = process.env.BENCH_CLIENTS;
const runs = process.env.BENCH_RUNS;
const { spec } = loadSpec();

interface Measured extends MeasuredRun {
  verdicts: Map<string, string>;
}

async function measure(latencyMs: number): Promise<Measured> {
  const key = generateKey();
  const served = { count: 0 };
  const server = await startLatentEmulator(spec, key, latencyMs, served);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-latency-'));
  try {
    const args = ['bin/svc-conformance.js', 'run', '--base-url', server.url, '--api-key-env', KEY_ENV, ...(fixed ? ['--concurrency', fixed] : []), ...(clients ? ['--clients', clients] : []), ...(runs ? ['--runs', runs] : []), '--report-dir', dir, '--quiet'];
    const { ms, code } = await timeProcess(args, { ...process.env, [KEY_ENV]: key });
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { cells: { report: string; traffic?: { concurrency: { reached: number } } }[] };
    const verdicts = new Map<string, string>();
    for (const cell of summary.cells) {
      const report = JSON.parse(readFileSync(join(dir, cell.report), 'utf8')) as { results: { checkId: string; model: string; verdict: string }[] };
      for (const r of report.results) verdicts.set(`${r.checkId} [${r.model}]`, r.verdict);
    }
    return { ms, code, served: served.count, reached: summary.cells[0]?.traffic?.concurrency.reached ?? 0, verdicts };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const differences = (a: Map<string, string>, b: Map<string, string>): string[] =>
  [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).map((k) => `${k}: ${a.get(k) ?? 'not run'} at 0 ms, ${b.get(k) ?? 'not run'} here`);

const reference = await measure(0);
console.log(`latency 0 ms (the reference): wall ${(reference.ms / 1000).toFixed(1)} s, exit ${reference.code}, ${reference.served} requests, ${reference.verdicts.size} verdicts, concurrency reached ${reference.reached}`);
for (const latencyMs of latencies) {
  const m = await measure(latencyMs);
  const cap = Number(fixed ?? ADAPTIVE.max);
  const floorMs = (m.served * latencyMs) / cap;
  const differ = differences(reference.verdicts, m.verdicts);
  console.log(
    `latency ${latencyMs} ms: wall ${(m.ms / 1000).toFixed(1)} s, exit ${m.code}, ${m.served} requests, concurrency reached ${m.reached} (cap ${cap}), floor ${(floorMs / 1000).toFixed(1)} s, ratio to the floor ${(m.ms / floorMs).toFixed(2)}, verdicts: ${differ.length === 0 ? `the same ${m.verdicts.size} as at 0 ms` : `${differ.length} differ\n  ${differ.join('\n  ')}`}`,
  );
}
