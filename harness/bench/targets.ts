/**
 * Many targets in one run (`npm run bench:targets`, issue 34): N embedded emulators in this process,
 * each answering after LATENCY ms (stream events 20 ms apart), and one `svc-conformance run` with N
 * --base-url (every check, every default model, default settings) in a fresh process. Prints, for
 * 1 target (the reference) and each N: the wall time and its ratio to one target's, the requests
 * the emulators served, the most concurrency a target reached, the run process's peak memory (the
 * emulators apart: they are this process), and whether every cell got the verdicts one target gets
 * alone. Nothing is asserted: cli/manyTargets.test.ts holds the verdicts and the order.
 *
 * BENCH_TARGETS (default "8,20"), BENCH_LATENCIES (default "400,800"); BENCH_SILENT=1 makes the last
 * target of each run one that accepts connections and never answers, and prints how long each
 * cell took: the live ones must end in their own time, the silent one as it does alone.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKey } from '#harness/emulator/index.ts';
import { startLatentEmulator, type MeasuredRun } from './latentEmulator.ts';
import { serveFetch, type FetchServer } from '#harness/core/http/fetchBridge.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { timeProcess } from './timeProcess.ts';

const KEY_ENV = 'SVC_BENCH_KEY';
const counts = (process.env.BENCH_TARGETS ?? '8,20').split(',').map(Number);
const latencies = (process.env.BENCH_LATENCIES ?? '400,800').split(',').map(Number);
const PEAK = fileURLToPath(new URL('./peakMemory.mjs', import.meta.url));
const { spec } = loadSpec();

interface Measured extends MeasuredRun {
  peakMiB: number;
  /** Per cell (target index), each check's verdict. */
  cells: Map<string, string>[];
  /** Per target, from its start to its end (its record's startedAt to finishedAt). */
  spans: number[];
}

const silentRun = process.env.BENCH_SILENT === '1';

/** A server that takes each request and never answers it (closed with the run). */
async function silentServer(): Promise<FetchServer> {
  return serveFetch(() => new Promise<Response>(() => undefined), { port: 0, host: '127.0.0.1', failure: () => new Response('', { status: 500 }) });
}

async function measure(targets: number, latencyMs: number, silent = 0): Promise<Measured> {
  const key = generateKey();
  const served = { count: 0 };
  const servers: FetchServer[] = [];
  for (let i = 0; i < targets - silent; i++) servers.push(await startLatentEmulator(spec, key, latencyMs, served));
  for (let i = 0; i < silent; i++) servers.push(await silentServer());
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-targets-'));
  try {
    const args = ['--import', PEAK, 'bin/svc-conformance.js', 'run', ...servers.flatMap((s) => ['--base-url', s.url]), '--api-key-env', KEY_ENV, '--report-dir', dir, '--quiet'];
    const peakFile = join(dir, 'peak');
    const { ms, code } = await timeProcess(args, { ...process.env, [KEY_ENV]: key, SVC_BENCH_PEAK_FILE: peakFile });
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { cells: { baseUrl: string; report: string; traffic?: { concurrency: { reached: number } } }[] };
    const cells = servers.map(() => new Map<string, string>());
    const spans = servers.map(() => 0);
    for (const cell of summary.cells) {
      const report = JSON.parse(readFileSync(join(dir, cell.report), 'utf8')) as { startedAt: string; finishedAt: string; results: { checkId: string; model: string; verdict: string }[] };
      const at = servers.findIndex((s) => s.url === cell.baseUrl);
      for (const r of report.results) cells[at]!.set(`${r.checkId} [${r.model}]`, r.verdict);
      spans[at] = Math.max(spans[at]!, Date.parse(report.finishedAt) - Date.parse(report.startedAt));
    }
    const reached = Math.max(0, ...summary.cells.map((c) => c.traffic?.concurrency.reached ?? 0));
    return { ms, code, served: served.count, reached, peakMiB: Number(readFileSync(peakFile, 'utf8')) / 1024, cells, spans };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

const differing = (one: Map<string, string>, cells: Map<string, string>[]): number => cells.filter((c) => c.size !== one.size || [...one].some(([k, v]) => c.get(k) !== v)).length;

if (silentRun) {
  for (const latencyMs of latencies) {
    const alone = await measure(1, latencyMs, 1);
    console.log(`${latencyMs} ms, the silent target alone: ${(alone.spans[0]! / 1000).toFixed(1)} s`);
    for (const n of counts) {
      const m = await measure(n, latencyMs, 1);
      const live = m.spans.slice(0, -1);
      console.log(`${latencyMs} ms, ${n} targets, the last silent: the live ones took ${(Math.min(...live) / 1000).toFixed(1)}-${(Math.max(...live) / 1000).toFixed(1)} s, the silent one ${(m.spans.at(-1)! / 1000).toFixed(1)} s, the run ${(m.ms / 1000).toFixed(1)} s, exit ${m.code}`);
    }
  }
  process.exit(0);
}

for (const latencyMs of latencies) {
  const one = await measure(1, latencyMs);
  console.log(`${latencyMs} ms, 1 target (the reference): wall ${(one.ms / 1000).toFixed(1)} s, exit ${one.code}, ${one.served} requests, concurrency reached ${one.reached}, peak ${one.peakMiB.toFixed(0)} MiB, ${one.cells[0]!.size} verdicts`);
  for (const n of counts) {
    const m = await measure(n, latencyMs);
    const off = differing(one.cells[0]!, m.cells);
    console.log(`${latencyMs} ms, ${n} targets: wall ${(m.ms / 1000).toFixed(1)} s (${(m.ms / one.ms).toFixed(2)}x one), exit ${m.code}, ${m.served} requests, concurrency reached ${m.reached} per target at most, peak ${m.peakMiB.toFixed(0)} MiB, verdicts: ${off === 0 ? `every cell as one target alone` : `${off} of ${n} targets differ from one alone`}`);
  }
}
