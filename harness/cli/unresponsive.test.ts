import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { startHostileServer, type HostileMode, type HostileServer } from '#harness/testing/hostileServer.ts';
import { runHostile, story, type HostileRun } from '#harness/testing/hostileRun.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';

/*
 * Only silence is unresponsive, and every run ends in bounded time, at default settings: each bound
 * below is the test's own timeout, the bound the run must keep, never a measured duration compared
 * with a guess. A body that never ends is cut at the whole-body deadline: --deadline-ms
 * BODY_DEADLINE_MS here, not the default (DEFAULT_TIMING, which a run given none uses:
 * cli/runFlags.test.ts), and the evidence names the deadline the run was given. Every test of the
 * file runs at once (describe.concurrent): each mostly waits.
 */

const { spec } = loadSpec();
const tmp = tempDirs('svc-unresponsive-');
const NOW = '2026-06-01T00:00:00Z';
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/svc-conformance.js');
/**
 * The whole-body deadline of the runs whose bodies never end: long enough that the emulator's
 * healthy answers in the same run (in this process) come well within it on a loaded machine.
 */
const BODY_DEADLINE_MS = 10_000;
const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function runAgainst(mode: HostileMode, extra: string[] = []): Promise<HostileRun> {
  const server = await startHostileServer(mode, { spec, now: () => new Date(NOW), maxStallMs: 300_000 });
  servers.push(server);
  const run = await runHostile(server, tmp(), NOW, extra);
  for (const file of ['report.json', 'report.md', 'junit.xml', 'report.html']) expect(existsSync(join(run.cell, file)), file).toBe(true);
  expect(existsSync(join(run.dir, 'summary.json'))).toBe(true);
  return run;
}

const listing = (results: CheckResult[]) => results.map((r) => `${r.checkId} ${r.verdict} ${story(r)}`).join('\n');

describe.concurrent('a fast HTTP answer, whatever its status, is evidence: nothing is declared unresponsive', () => {
  test('a gateway answering 500 on two routes and rightly elsewhere: every other check gets its verdict, nothing is "not sent"', async () => {
    const run = await runAgainst('server-error-two-paths', ['--quiet']);
    expect(run.code).toBe(1);
    const unsent = run.results.filter((r) => /not sent|unresponsive/.test(story(r)));
    expect(unsent, listing(unsent)).toEqual([]);
    // Errors and failures name the 500, on the two routes alone.
    const bad = run.results.filter((r) => r.verdict === 'error' || r.verdict === 'fail');
    expect(bad.length).toBeGreaterThan(0);
    for (const r of bad) expect(story(r), r.checkId).toMatch(/500|balance|completions/);
    expect(run.results.find((r) => r.checkId === 'schema.chat-completion.matches-schema')?.verdict).toBe('pass');
    expect(run.results.find((r) => r.checkId === 'schema.model-list.matches-schema')?.verdict).toBe('pass');
    expect(run.results.filter((r) => r.verdict === 'pass').length).toBeGreaterThan(run.results.length / 2);
  }, 150_000);

  // python3 -m http.server: 404 to a GET it has no file for, 501 to every POST, at once.
  test('python3 -m http.server: each route is reported not served (one failure per route, the rest blocked), nothing unresponsive', async () => {
    const run = await runAgainst('not-implemented', ['--quiet']);
    expect(run.code).toBe(1);
    expect(run.results.filter((r) => /unresponsive|not sent/.test(story(r))), listing(run.results)).toEqual([]);
    const failed = run.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
    expect(failed.map((r) => r.checkId).every((id) => /^endpoint\..*\.served$/.test(id)), listing(failed)).toBe(true);
    for (const r of failed) expect(r.failures, r.checkId).toHaveLength(1);
    const served = run.results.filter((r) => /^endpoint\..*\.served$/.test(r.checkId));
    expect(failed.length).toBe(served.length);
    expect(run.results.filter((r) => r.verdict === 'skip' && r.skipKind === 'blocked').length).toBeGreaterThan(run.results.length / 2);
  }, 30_000);
});

describe.concurrent('every run ends in bounded time with its reports, at default settings (a body: --deadline-ms alone)', () => {
  test.each(['stall-mid-stream', 'trickle-body'] as const)('%s: all reports, exit 1', async (mode) => {
    const run = await runAgainst(mode, ['--quiet', '--deadline-ms', String(BODY_DEADLINE_MS)]);
    expect(run.code).toBe(1);
    expect(run.results.some((r) => r.verdict === 'error' && /HARNESS_TIMEOUT|unresponsive/.test(story(r))), listing(run.results)).toBe(true);
    expect(run.results.map(story).join('\n'), listing(run.results)).toMatch(new RegExp(`HARNESS_TIMEOUT.*(?<!\\d)${BODY_DEADLINE_MS} ms`));
  }, 90_000);

  test('SIGTERM in the middle of a body that never ends: the run ends within 10 s, exit 143, partial reports written', async () => {
    const server = await startHostileServer('trickle-body', { spec, now: () => new Date(NOW), maxStallMs: 300_000 });
    servers.push(server);
    const dir = tmp();
    const child = spawn(process.execPath, [BIN, 'run', '--base-url', server.url, '--api-key-env', 'SVC_UNRESPONSIVE_SIGTERM', '--model', 'svc-v4-flash', '--now', NOW, '--report-dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SVC_UNRESPONSIVE_SIGTERM: server.apiKey },
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const closed = new Promise<number | null>((done) => child.on('close', done));
    // Signalled once bodies are trickling and the run has been waiting on them for a while.
    while (server.counts.broken === 0) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 3_000));
    child.kill('SIGTERM');
    const bound = new Promise<'still running'>((done) => setTimeout(() => done('still running'), 10_000));
    const code = await Promise.race([closed, bound]);
    if (code === 'still running') child.kill('SIGKILL');
    // The bound is the race above: a run still going 10 s after the signal is no 143.
    expect(code, stderr).toBe(143);
    const cell = join(dir, `127.0.0.1_${new URL(server.url).port}`, 'svc-v4-flash');
    const record = JSON.parse(readFileSync(join(cell, 'report.json'), 'utf8')) as { interrupted: boolean; results: CheckResult[] };
    expect(record.interrupted).toBe(true);
    for (const file of ['report.md', 'junit.xml', 'report.html']) expect(existsSync(join(cell, file)), file).toBe(true);
  }, 60_000);
});

describe.concurrent('a 5xx is never a verdict on the first try', () => {
  test('a refusal-expecting request answered 500, then 401 when asked again: the check passes, and the report says 2 attempts', async () => {
    const run = await runAgainst('first-attempt-500', ['--only', 'auth.*', '--quiet']);
    const wrongKey = run.results.find((r) => r.checkId === 'auth.wrong-key.returns-401');
    expect(wrongKey?.verdict, story(wrongKey!)).toBe('pass');
    expect(wrongKey?.attempts).toEqual({ requests: 1, attempts: 2 });
    expect(readFileSync(join(run.cell, 'report.md'), 'utf8')).toContain('`auth.wrong-key.returns-401`: ');
    expect(readFileSync(join(run.cell, 'report.md'), 'utf8')).toMatch(/auth\.wrong-key\.returns-401`: .*, 2 attempts for 1 request/);
    expect(run.code).toBe(0);
  }, 120_000);
});
