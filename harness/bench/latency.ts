/**
 * A full default run at realistic latency (`npm run bench:latency`): the embedded emulator answers
 * each request after LATENCY ms (800 by default; also run at 200) and spaces stream events 20 ms
 * apart (50 tokens a second), and `svc-conformance run --base-url` (every check, every default
 * model, default concurrency) runs against it in a fresh process. Prints the wall time, the requests
 * the endpoint served, the concurrency, and the ratio to the floor a run of that many requests has at
 * that latency and concurrency (requests x latency / concurrency). Nothing is asserted: a timed test
 * would be flaky on a shared machine.
 *
 * BENCH_LATENCIES (default "800,200"), BENCH_CONCURRENCY (default 4, the run's default).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, createContext, generateKey } from '#harness/emulator/index.ts';
import { serveFetch } from '#harness/core/http/fetchBridge.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { timeProcess } from './timeProcess.ts';

const KEY_ENV = 'SVC_BENCH_KEY';
const latencies = (process.env.BENCH_LATENCIES ?? '800,200').split(',').map(Number);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const { spec } = loadSpec();


for (const latencyMs of latencies) {
  const key = generateKey();
  const app = createApp(createContext({ spec, apiKeys: [key], latencyMs, streamIntervalMs: 20, concurrencyPerKey: 1000 }));
  let served = 0;
  const server = await serveFetch(async (req) => {
    served += 1;
    return app(req);
  }, { port: 0, host: '127.0.0.1', failure: () => new Response('internal error', { status: 500 }) });
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-latency-'));
  try {
    const { ms, code } = await timeProcess(['bin/svc-conformance.js', 'run', '--base-url', server.url, '--api-key-env', KEY_ENV, '--concurrency', String(concurrency), '--report-dir', dir, '--quiet'], { ...process.env, [KEY_ENV]: key });
    const floorMs = (served * latencyMs) / concurrency;
    console.log(`latency ${latencyMs} ms: wall ${(ms / 1000).toFixed(1)} s, exit ${code}, ${served} requests, concurrency ${concurrency}, floor ${(floorMs / 1000).toFixed(1)} s, ratio to the floor ${(ms / floorMs).toFixed(2)}`);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
