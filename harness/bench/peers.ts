/**
 * A full live run beside a peer scanner, against the same endpoint (`npm run bench:peers`):
 * compatcanary (`scan --profile chat`, once per current model, as its users scan a provider) and
 * `svc-conformance run --base-url` (every check, every default model), each a fresh process, in
 * interleaved rounds against one embedded emulator on loopback. Prints each round, the medians and
 * the ratio; nothing is asserted (a timed test would be flaky on a shared machine).
 *
 * BENCH_ROUNDS (default 5).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { REPO, timeProcess } from './timeProcess.ts';

const KEY_ENV = 'SVC_BENCH_KEY';

interface Timed {
  ms: number;
  codes: number[];
}


async function sequence(runs: string[][], env: NodeJS.ProcessEnv): Promise<Timed> {
  const out: Timed = { ms: 0, codes: [] };
  for (const args of runs) {
    const r = await timeProcess(args, env);
    out.ms += r.ms;
    out.codes.push(r.code);
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const { spec } = loadSpec();
const current = Object.entries(spec.models)
  .filter(([, m]) => m.kind === 'current')
  .map(([id]) => id);
const key = `sk-bench-${Date.now().toString(16)}`;
const emulator = await startEmulator({ spec, apiKeys: [key] });
const reports = mkdtempSync(join(tmpdir(), 'svc-bench-peers-'));
const env = { ...process.env, [KEY_ENV]: key, OPENAI_API_KEY: key, CI: '' };
const peer = current.map((model) => [join(REPO, 'node_modules/compatcanary/src/cli.js'), 'scan', '--base-url', emulator.url, '--model', model, '--profile', 'chat']);
const ours = [[join(REPO, 'bin/svc-conformance.js'), 'run', '--base-url', emulator.url, '--api-key-env', KEY_ENV, '--report-dir', reports, '--quiet']];
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

try {
  console.log(`endpoint: the embedded emulator at ${emulator.url}; compatcanary scans ${current.join(', ')} (--profile chat); svc-conformance runs every check on every default model`);
  // One unmeasured round of each warms the file cache.
  await sequence(peer, env);
  await sequence(ours, env);
  const peerMs: number[] = [];
  const oursMs: number[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const p = await sequence(peer, env);
    const o = await sequence(ours, env);
    peerMs.push(p.ms);
    oursMs.push(o.ms);
    console.log(`round ${round}: compatcanary ${seconds(p.ms)} (exit ${p.codes.join(', ')}), svc-conformance ${seconds(o.ms)} (exit ${o.codes.join(', ')})`);
  }
  const ratio = median(oursMs) / median(peerMs);
  console.log(`median: compatcanary ${seconds(median(peerMs))}, svc-conformance ${seconds(median(oursMs))}; ratio ${ratio.toFixed(2)}x`);
} finally {
  await emulator.close();
  rmSync(reports, { recursive: true, force: true });
}
