import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult, Failure } from '#harness/core/outcome.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import type { RunRecord, RunSummary } from '#harness/results/index.ts';
import type { Schedule } from '#harness/runner/runStop.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { startStallingProxy, type Arriving, type Stall, type StallingProxy } from '#harness/testing/stallingProxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * Issue 48: every wait is bounded, and a signal always ends the run. A proxy in front of the
 * embedded emulator makes the run wait (a 429 asking to be waited out, a body that never ends) in
 * each phase; the run never waits beyond the description's back-off cap, says so, and a SIGINT in
 * any phase ends it within 5 s with the partial reports written.
 */
const { spec } = loadSpec();
const CAP_S = spec.errors.retry.max_delay_seconds;
const tmp = tempDirs('svc-waits-');
const NOW = '2026-06-01T00:00:00Z';
const KEY = 'sk-waits-key-0123456789abcdef';
const KEY_VAR = 'SVC_WAITS_KEY';
const MODEL = 'svc-v4-flash';

let fast: RunningEmulator;
/** Slow enough that a run is still in the phase its signal is meant for. */
let slow: RunningEmulator;

beforeAll(async () => {
  fast = await startEmulator({ spec, apiKeys: [KEY], now: () => new Date(NOW), latencyMs: 20, streamIntervalMs: 1, concurrencyPerKey: 1000 });
  slow = await startEmulator({ spec, apiKeys: [KEY], now: () => new Date(NOW), latencyMs: 300, streamIntervalMs: 5, concurrencyPerKey: 1000 });
  process.env[KEY_VAR] = KEY;
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await fast.close();
  await slow.close();
});

interface Ran {
  code: number;
  stderr: string;
  summary: RunSummary;
  record: RunRecord;
  /** performance.now() when main() returned. */
  endedAt: number;
}

function reportOf(dir: string): RunRecord {
  const find = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? find(join(d, n)) : n === 'report.json' ? [join(d, n)] : []));
  return JSON.parse(readFileSync(find(dir)[0]!, 'utf8')) as RunRecord;
}

/** `run` through the proxy, in-process; `watch` sees each stderr line as it is printed. */
async function runThrough(proxy: StallingProxy, args: string[], watch?: (line: string) => void, schedule?: Schedule): Promise<Ran> {
  const dir = tmp();
  const io = captureIO();
  const stderr = io.stderr;
  io.stderr = (line) => {
    stderr(line);
    watch?.(line);
  };
  try {
    const code = await main(['run', '--base-url', proxy.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', MODEL, '--clients', 'none', '--runs', '2', '--report-dir', dir, ...args], schedule ? { ...io, schedule } : io);
    const endedAt = performance.now();
    return { code, stderr: io.err.join('\n'), summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary, record: reportOf(dir), endedAt };
  } finally {
    await proxy.close();
  }
}

const waitFailures = (results: readonly CheckResult[]): Failure[] => results.flatMap((r) => r.failures ?? []).filter((f) => f.defect?.kind === 'wait');
const CAPPED = (asked: number) => `HTTP 429 asked to wait ${asked} s; the description caps back-off at ${CAP_S} s`;

describe('every wait is bounded: a Retry-After beyond the back-off cap is not waited out', () => {
  test('three 429s asking 3600 s in the ordinary phase: each request refused at once and reported with the wait; the run ends within 90 s of its last request', async () => {
    let refused = 0;
    const proxy = await startStallingProxy(fast.url, (r) => (r.method === 'POST' && r.path === '/chat/completions' && r.n > 20 && refused < 3 ? (refused++, { kind: 'refuse', status: 429, retryAfter: '3600' }) : undefined));
    const run = await runThrough(proxy, []);
    expect(proxy.stalled()).toBe(3);
    // The bound under test is the run's own: nothing of it waited an hour, nor the cap.
    expect(run.endedAt - proxy.lastRequestAt()).toBeLessThan(90_000);
    // Each check that read one of the three answers (some are shared: runner/checkContext.ts) says so.
    const waits = waitFailures(run.record.results);
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(new Set(waits.map((f) => JSON.stringify(f.defect)))).toEqual(new Set([JSON.stringify({ kind: 'wait', status: 429, askedMs: 3_600_000, capMs: CAP_S * 1000, what: CAPPED(3600) })]));
    for (const f of waits) {
      expect(f.message).toBe(`POST /chat/completions was refused: ${CAPPED(3600)}, so it was not asked again`);
      expect(f.evidence?.beyondCap).toEqual({ askedMs: 3_600_000, capMs: CAP_S * 1000 });
      expect(f.evidence?.response?.headers['retry-after']).toBe('3600');
      expect(f.reproducer?.curl).toContain('/chat/completions');
    }
    // Typed, so the three are one cause, in every report.
    expect(run.record.causes?.find((c) => c.key.startsWith('wait 429'))?.failures).toBe(waits.length);
    expect(run.stderr).toContain(CAPPED(3600));
    // The rest of the run went on: every other check judged.
    expect(run.record.results.filter((r) => r.verdict === 'pass').length).toBeGreaterThan(100);
    expect(run.code).toBe(1);
  }, 60_000);

  test('a 429 asking 3600 s to every request after the load peak, for ten minutes: the recovery is bounded by the cap and ends at the refusal; the run ends within 90 s of its last request', async () => {
    let peakedAt: number | undefined;
    const afterPeak = (r: Arriving): Stall | undefined => {
      if (r.peaked) peakedAt ??= performance.now();
      return peakedAt !== undefined && performance.now() - peakedAt < 600_000 && r.method === 'POST' ? { kind: 'refuse', status: 429, retryAfter: '3600' } : undefined;
    };
    const proxy = await startStallingProxy(fast.url, afterPeak);
    const run = await runThrough(proxy, ['--load', '16', '--only', 'load.']);
    expect(proxy.stalled()).toBeGreaterThan(0);
    expect(run.endedAt - proxy.lastRequestAt()).toBeLessThan(90_000);
    // The progress says the window, its bound and why, before the recovery waits.
    expect(run.stderr).toContain(`the peak is over: asking at rest until HTTP 200, for at most ${CAP_S} s (the longest Retry-After at the peak, 3600 s, is beyond the description's back-off cap of ${CAP_S} s)`);
    const recovers = run.record.results.find((r) => r.checkId === 'load.endpoint.recovers')!;
    expect(recovers.verdict).toBe('fail');
    expect(recovers.failures?.[0]?.defect).toEqual({ kind: 'wait', status: 429, askedMs: 3_600_000, capMs: CAP_S * 1000, what: CAPPED(3600) });
    expect(recovers.failures?.[0]?.message).toContain(`the window ${CAP_S} s (the longest Retry-After at the peak, 3600 s`);
    // The refusals under load are what the description allows.
    expect(run.record.results.find((r) => r.checkId === 'load.excess.refused-as-described')?.verdict).toBe('pass');
    expect(run.record.load?.recovery?.windowMs).toBe(CAP_S * 1000);
  }, 60_000);

  test('after the peak, a 200 holding the error envelope is no recovery: the endpoint recovers on the first try that is an answer', async () => {
    let refusedAsSuccess = 0;
    const proxy = await startStallingProxy(fast.url, (r) => (r.peaked && r.load && r.inFlight === 1 && refusedAsSuccess++ < 2 ? { kind: 'error-200' } : undefined));
    const run = await runThrough(proxy, ['--load', '16', '--only', 'load.endpoint.recovers']);
    expect(proxy.stalled()).toBe(2);
    const recovers = run.record.results.find((r) => r.checkId === 'load.endpoint.recovers')!;
    expect(recovers.verdict).toBe('pass');
    expect(recovers.reason ?? '').toMatch(/after 3 try\(ies\)/);
  }, 60_000);
});

/** Sends SIGINT (in-process: the run's own listener) once `when` resolves; the time it was sent. */
function signalWhen(when: Promise<unknown>, signal: 'SIGINT' | 'SIGTERM' = 'SIGINT'): { sentAt(): number | undefined } {
  let sentAt: number | undefined;
  void when.then(() => {
    sentAt = performance.now();
    process.emit(signal, signal);
  });
  return { sentAt: () => sentAt };
}

/** A promise and what resolves it. */
function trigger(): { fired: Promise<void>; fire(): void } {
  let fire!: () => void;
  const fired = new Promise<void>((done) => (fire = done));
  return { fired, fire };
}

const later = (p: Promise<unknown>, ms: number) => p.then(() => new Promise((done) => setTimeout(done, ms)));

/** What every interrupted run shows: its exit code within 5 s of the signal, and the partial reports, headed INTERRUPTED. */
function expectInterrupted(run: Ran, sentAt: number | undefined, signal: 'SIGINT' | 'SIGTERM' = 'SIGINT'): void {
  expect(sentAt, run.stderr).toBeDefined();
  expect(run.endedAt - sentAt!, run.stderr).toBeLessThan(5_000);
  expect(run.code, run.stderr).toBe(signal === 'SIGINT' ? 130 : 143);
  expect(run.summary).toMatchObject({ outcome: 'interrupted', exitCode: run.code, interrupted: true });
  expect(run.record).toMatchObject({ interrupted: true, interruptedBy: signal });
  expect(run.record.results.some((r) => r.skipKind === 'interrupted'), JSON.stringify(run.record.results.map((r) => [r.checkId, r.verdict, r.reason]))).toBe(true);
}

// One after another: a signal reaches every run going on in the process.
describe('a signal ends the run within 5 s in every phase, the partial reports written', () => {
  test('in the ordinary checks', async () => {
    const first = trigger();
    const proxy = await startStallingProxy(slow.url, () => undefined);
    const sig = signalWhen(first.fired);
    const run = await runThrough(proxy, ['--concurrency', '2'], (l) => /^ {2}\[\s*1\//.test(l) && first.fire());
    expectInterrupted(run, sig.sentAt());
  }, 60_000);

  test('in the coverage phase (each class of invalid request sent once)', async () => {
    const sent = trigger();
    const proxy = await startStallingProxy(slow.url, (r) => void (r.n > 12 && sent.fire()));
    const sig = signalWhen(sent.fired);
    // One at a time: its classes take longer than the stop's grace.
    const run = await runThrough(proxy, ['--only', 'property.invalid-classes.refused-with-spec-status', '--concurrency', '1']);
    expectInterrupted(run, sig.sentAt());
  }, 60_000);

  test('in the load phase at rest (one in flight)', async () => {
    const atRest = trigger();
    const proxy = await startStallingProxy(slow.url, (r) => void (r.load && atRest.fire()));
    const sig = signalWhen(atRest.fired);
    const run = await runThrough(proxy, ['--load', '16', '--only', 'load.']);
    expectInterrupted(run, sig.sentAt());
    expect(run.record.load?.endedEarly).toMatch(/^the run was stopped \(SIGINT\)/);
  }, 60_000);

  test('in the load ramp', async () => {
    const ramp = trigger();
    const proxy = await startStallingProxy(slow.url, (r) => void (r.load && r.inFlight >= 4 && ramp.fire()));
    const sig = signalWhen(ramp.fired);
    const run = await runThrough(proxy, ['--load', '16', '--only', 'load.']);
    expectInterrupted(run, sig.sentAt());
  }, 60_000);

  test(`in the recovery after the peak, waiting out a Retry-After of ${CAP_S} s (the cap: honoured)`, async () => {
    const recovering = trigger();
    const proxy = await startStallingProxy(fast.url, (r) => (r.peaked && r.method === 'POST' ? { kind: 'refuse', status: 429, retryAfter: String(CAP_S) } : undefined));
    const sig = signalWhen(later(recovering.fired, 300));
    const run = await runThrough(proxy, ['--load', '16', '--only', 'load.'], (l) => l.includes('the peak is over') && recovering.fire());
    expect(run.stderr).toContain(`for at most ${CAP_S} s (the longest Retry-After at the peak)`);
    expectInterrupted(run, sig.sentAt());
  }, 60_000);

  test(`while a check waits out a Retry-After of ${CAP_S} s; SIGTERM exits 143`, async () => {
    let refused = false;
    const proxy = await startStallingProxy(fast.url, (r) => (r.method === 'POST' && r.path === '/chat/completions' && r.n > 20 && !refused ? ((refused = true), { kind: 'refuse', status: 429, retryAfter: String(CAP_S) }) : undefined));
    const sig = signalWhen(later(proxy.firstStall, 300), 'SIGTERM');
    const run = await runThrough(proxy, []);
    expectInterrupted(run, sig.sentAt(), 'SIGTERM');
  }, 60_000);

  test('while a body is being read (its headers came, its end never does)', async () => {
    let stalled = false;
    const proxy = await startStallingProxy(fast.url, (r) => (r.method === 'POST' && r.path === '/chat/completions' && !r.stream && r.n > 20 && !stalled ? ((stalled = true), { kind: 'trickle' }) : undefined));
    const sig = signalWhen(later(proxy.firstStall, 300));
    const run = await runThrough(proxy, []);
    expectInterrupted(run, sig.sentAt());
  }, 60_000);
});

describe('a run has a time ceiling, derived from its settings and said before it starts', () => {
  test('past it, the run ends as INTERRUPTED with the partial reports (the ceiling brought forward by an injected timer)', async () => {
    const proxy = await startStallingProxy(slow.url, () => undefined);
    // The machine's timers, but the ceiling (minutes) comes after 500 ms; the stop's grace is as it is.
    const soon: Schedule = (ms, fire) => {
      const t = setTimeout(fire, ms >= 60_000 ? 500 : ms);
      return () => clearTimeout(t);
    };
    const run = await runThrough(proxy, [], undefined, soon);
    expect(run.stderr).toMatch(/svc-conformance: the run ends by \S+Z at the latest: its time ceiling is \d+ min \(\d+ check runs, up to \d+ at a time, each within 15 min: \d+ min; 2 min to start and report\); past it, it stops as INTERRUPTED, with the partial reports/);
    expect(run.code).toBe(130);
    expect(run.summary).toMatchObject({ outcome: 'interrupted', exitCode: 130 });
    expect(run.summary.reason).toMatch(/stopped at its time ceiling after \d+ of \d+ checks/);
    expect(run.record).toMatchObject({ interrupted: true, interruptedBy: 'ceiling' });
    expect(run.record.results.find((r) => r.skipKind === 'interrupted')?.reason).toMatch(/^interrupted: (not run|abandoned: the run was stopped) \(its time ceiling \(\d+ min\)\)/);
  }, 60_000);
});
