import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { RunRecord, RunSummary } from '#harness/results/index.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { startEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { startStallingProxy } from '#harness/testing/stallingProxy.ts';
import { STOP_GRACE_MS } from '#harness/transport/timing.ts';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/svc-conformance.js');
const tmp = tempDirs('svc-interrupt-');

function reportsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? reportsUnder(p) : name === 'report.json' ? [p] : [];
  });
}

/** The real CLI in a child process; `signal` is sent once the first progress line appears. */
function runInterrupted(args: string[], signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let sent = false;
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && /\n {2}\[\s*1\//.test(stderr)) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('a signal during a run', () => {
  test('SIGINT: the partial reports are written, marked interrupted, and the run exits 130', async () => {
    const dir = tmp();
    const { code, stderr } = await runInterrupted(['run', '--model', 'svc-v4-flash', '--concurrency', '1', '--report-dir', dir, '--json', join(dir, 'all.json')], 'SIGINT');
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('interrupted (SIGINT)');
    expect(stderr).not.toMatch(/\n {4}at /);
    const [file] = reportsUnder(dir);
    const record = JSON.parse(readFileSync(file!, 'utf8')) as RunRecord;
    expect(record.interrupted).toBe(true);
    const ran = record.results.filter((r) => r.verdict === 'pass');
    const notRun = record.results.filter((r) => r.verdict === 'skip' && r.reason?.startsWith('interrupted'));
    expect(ran.length).toBeGreaterThan(0);
    expect(notRun.length).toBeGreaterThan(0);
    // Every planned check is accounted for once: run, or skipped as not run.
    expect(new Set(record.results.map((r) => r.checkId)).size).toBe(record.results.length);
    expect(record.summary.total).toBe(record.results.length);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.interrupted).toBe(true);
    // every output says INTERRUPTED, and none reads as a pass
    expect(summary).toMatchObject({ outcome: 'interrupted', exitCode: 130 });
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/^# ⏹️ INTERRUPTED: /);
    expect(readFileSync(join(dirname(file!), 'report.md'), 'utf8')).toMatch(/^# ⏹️ INTERRUPTED: /);
    expect(readFileSync(join(dirname(file!), 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="[1-9]/);
    expect(record.results.filter((r) => r.verdict === 'skip' && r.reason?.startsWith('interrupted')).every((r) => r.skipKind === 'interrupted')).toBe(true);
    for (const f of ['report.md', 'report.html', 'junit.xml']) expect(readFileSync(join(dirname(file!), f), 'utf8')).toMatch(/interrupted/i);
    const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { records: RunRecord[] };
    expect(all.records[0]?.interrupted).toBe(true);
  }, 120_000);

  test('a second SIGINT while the first one\'s grace runs (a check waiting out a Retry-After): exit 130 at once, not after the grace', async () => {
    const { spec } = loadSpec();
    const key = 'sk-interrupt-twice-0123456789';
    const emu = await startEmulator({ spec, apiKeys: [key], now: () => new Date('2026-06-01T00:00:00Z') });
    let refused = false;
    const proxy = await startStallingProxy(emu.url, (r) => (r.method === 'POST' && r.n > 20 && !refused ? ((refused = true), { kind: 'refuse', status: 429, retryAfter: String(spec.errors.retry.max_delay_seconds) }) : undefined));
    try {
      const child = spawn(process.execPath, [BIN, 'run', '--base-url', proxy.url, '--api-key-env', 'SVC_INTERRUPT_TWICE', '--now', '2026-06-01T00:00:00Z', '--model', 'svc-v4-flash', '--report-dir', tmp()], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SVC_INTERRUPT_TWICE: key } });
      let stderr = '';
      child.stdout.resume();
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const closed = new Promise<number | null>((done) => child.on('close', done));
      await proxy.firstStall;
      await new Promise((r) => setTimeout(r, 300));
      const first = performance.now();
      child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGINT');
      const code = await closed;
      expect(code, stderr).toBe(130);
      expect(stderr).toContain('svc-conformance: SIGINT again: stopping now');
      // At once: before the first signal's grace would have ended the waits.
      expect(performance.now() - first).toBeLessThan(STOP_GRACE_MS);
    } finally {
      await proxy.close();
      await emu.close();
    }
  }, 120_000);

  test('SIGTERM: the same, exit 143', async () => {
    const dir = tmp();
    // Every check of a model, one at a time: plenty are left when the signal lands, even on a busy machine.
    const { code, stderr } = await runInterrupted(['run', '--model', 'svc-v4-flash', '--concurrency', '1', '--report-dir', dir], 'SIGTERM');
    expect(code, stderr).toBe(143);
    const record = JSON.parse(readFileSync(reportsUnder(dir)[0]!, 'utf8')) as RunRecord;
    expect(record.interrupted).toBe(true);
    expect(record.interruptedBy).toBe('SIGTERM');
    expect(record.results.some((r) => r.reason === 'interrupted: not run (SIGTERM)')).toBe(true);
  }, 120_000);
});
