/**
 * The load benchmark as a script: `node --import tsx harness/bench/load/main.ts`.
 * LOAD_CLIENTS (default 500), LOAD_DURATION_S (default 30), LOAD_CONCURRENCY (the emulator's
 * per-key limit, default 8), LOAD_STREAM_INTERVAL_MS (default 0), LOAD_JSON (also write the report
 * there). Prints the figures; exits 1 when a property broke (crash, unanswered request, RSS growth,
 * a 429 within the limit), 2 on a bad variable.
 */
import { writeFileSync } from 'node:fs';
import { mib } from './judgeLoad.ts';
import { runLoad, type LoadReport } from './runLoad.ts';

function env(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    process.stderr.write(`load: ${name} must be a number from ${min} to ${max} (got ${JSON.stringify(raw)})\n`);
    process.exit(2);
  }
  return n;
}

export function describeReport(r: LoadReport): string {
  const histogram = (h: Record<string, number>) =>
    Object.entries(h)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ') || 'none';
  const s = r.memory.samples;
  return [
    `emulator under load: ${r.options.clients} clients for ${(r.options.durationMs / 1000).toFixed(0)} s, per-key limit ${r.options.concurrencyPerKey}, stream interval ${r.options.streamIntervalMs} ms`,
    `  keys: ${r.groups.map((g) => `${g.keys} x ${g.clientsPerKey} clients (${g.name})`).join(', ')}`,
    `  requests: ${r.requests} in ${(r.wallMs / 1000).toFixed(1)} s (${r.requestsPerSecond}/s), answered ${r.answered}, socket errors ${Object.values(r.errors).reduce((a, b) => a + b, 0)}${Object.keys(r.errors).length ? ` (${histogram(r.errors)})` : ''}, broken 200 bodies ${r.malformed}`,
    `  statuses: ${histogram(r.statuses)}; 429 by key group: under ${r.tooManyByGroup.under}, at ${r.tooManyByGroup.at}, over ${r.tooManyByGroup.over}`,
    `  latency: p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms (200 only: p50 ${r.latencyMs.p50Ok} ms, p99 ${r.latencyMs.p99Ok} ms)`,
    `  server: ${r.server.admitted} admitted, ${r.server.refused} refused, peak ${r.server.peakInFlightPerKey} in flight for one key; event-loop delay p99 ${r.server.eventLoopDelayP99Ms} ms, max ${r.server.eventLoopDelayMaxMs} ms${r.server.crashed ? `; CRASHED: ${r.server.crashed}` : ''}`,
    `  in flight at each 429: client-side (key's requests in flight, most over the 429's lifetime) ${histogram(r.clientInFlightAt429)}; server-side (slots held) ${histogram(r.serverInFlightAtRefusal)}`,
    `  memory: RSS ${mib(r.memory.rssStart)} at start, peak ${mib(r.memory.rssPeak)}; heap used peak ${mib(r.memory.heapUsedPeak)}; live heap after a full collection ${r.memory.liveHeapAtThird === undefined ? '?' : mib(r.memory.liveHeapAtThird)} at a third of the run, ${r.memory.liveHeapAtEnd === undefined ? '?' : mib(r.memory.liveHeapAtEnd)} at its end; ${s.length} samples`,
    `  RSS per sample (MiB): ${s.map((x) => (x.rss / 1024 / 1024).toFixed(0)).join(' ')}`,
    `  heap used per sample (MiB): ${s.map((x) => (x.heapUsed / 1024 / 1024).toFixed(0)).join(' ')}`,
    r.problems.length === 0 ? '  verdict: held up (no crash, every request answered, RSS bounded, 429 only beyond the limit)' : `  verdict: FAILED\n${r.problems.map((p) => `    - ${p}`).join('\n')}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runLoad({
    clients: env('LOAD_CLIENTS', 500, 1, 5000),
    durationMs: env('LOAD_DURATION_S', 30, 1, 600) * 1000,
    concurrencyPerKey: env('LOAD_CONCURRENCY', 8, 1, 100_000),
    streamIntervalMs: env('LOAD_STREAM_INTERVAL_MS', 0, 0, 1000),
  });
  process.stdout.write(`${describeReport(report)}\n`);
  if (process.env.LOAD_JSON) writeFileSync(process.env.LOAD_JSON, `${JSON.stringify(report, null, 2)}\n`);
  process.exitCode = report.problems.length === 0 ? 0 : 1;
}
