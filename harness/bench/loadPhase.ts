/**
 * The load phase at realistic latency (`npm run bench:load-phase`): `run --load N --only load.`
 * (every current model, one after the other) against the embedded emulator answering each request
 * after LATENCY ms with stream events 20 ms apart and no per-key cap, so every request of every
 * step is served (the slowest case: refusals come back at once). Prints the wall time of the run
 * process, its peak resident set, the requests the endpoint served and the outcome. Nothing is
 * asserted: a timed test would be flaky on a shared machine (docs/performance.md keeps the figures).
 *
 * BENCH_LOAD (default 64), BENCH_LATENCY (default 800).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKey } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { startLatentEmulator } from './latentEmulator.ts';
import { timeProcess } from './timeProcess.ts';

const KEY_ENV = 'SVC_BENCH_KEY';
const n = Number(process.env.BENCH_LOAD ?? 64);
const latencyMs = Number(process.env.BENCH_LATENCY ?? 800);
const { spec } = loadSpec();
const key = generateKey();
const served = { count: 0 };
const server = await startLatentEmulator(spec, key, latencyMs, served);
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-load-phase-'));
const peakFile = join(dir, 'peak');
try {
  const preload = fileURLToPath(new URL('./peakMemory.mjs', import.meta.url));
  const args = ['--import', preload, 'bin/svc-conformance.js', 'run', '--base-url', server.url, '--api-key-env', KEY_ENV, '--load', String(n), '--only', 'load.', '--report-dir', dir, '--quiet'];
  const { ms, code } = await timeProcess(args, { ...process.env, [KEY_ENV]: key, SVC_BENCH_PEAK_FILE: peakFile });
  const peakMiB = Number(readFileSync(peakFile, 'utf8')) / 1024;
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { outcome: string; cells: unknown[] };
  console.log(`load phase of ${n} at ${latencyMs} ms: wall ${(ms / 1000).toFixed(1)} s, peak RSS ${peakMiB.toFixed(0)} MiB, ${served.count} requests served, ${summary.cells.length} cells, ${summary.outcome}, exit ${code}`);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
