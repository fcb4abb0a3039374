import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { startHostileServer, type HostileMode, type HostileServer } from '#harness/testing/hostileServer.ts';
import { runHostile, story, type HostileRun } from '#harness/testing/hostileRun.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';

/*
 * `run` against endpoints that are broken by definition (harness/testing/hostileServer.ts): each
 * run finishes, writes its reports, exits 1, the checks aimed at the broken path fail or end in
 * error with evidence saying what happened, and the others still run.
 *
 * The stalls cost the run's timeouts, shortened with `--timeout-ms` (the flag a user would give a
 * slow or a hostile endpoint) for the stall cases only, whose expiry is the thing under test; the
 * other cases keep the default timeouts, so a busy machine never times out a healthy answer. Every
 * case of the file runs at once (describe.concurrent), so the file takes about as long as its slowest case.
 */

const { spec } = loadSpec();
const tmp = tempDirs('svc-hostile-');
const NOW = '2026-06-01T00:00:00Z';
/**
 * The stall cases' headers and body-idle timeout: a stall is reported after this long. Long enough
 * that the healthy answers of the same run (the emulator's, in this process) come well within it on
 * a loaded machine; short enough that a stall still costs the case only seconds.
 */
const STALL_TIMEOUT_MS = 10_000;
/** A case: a dry run for the cost estimate, the run, a timeout or two, with room for a loaded machine. */
const CASE_TIMEOUT_MS = 120_000;

interface Case {
  mode: HostileMode;
  /** Schema, stream and stateless checks by default (`s*`): the plain and the streamed chat, GET /models, the balance. */
  only?: string;
  /** Checks aimed at the broken path, and what their reason or evidence must name. */
  affected: string[];
  says: RegExp;
  /** Checks the mode leaves alone that must still pass (none when nothing answers). */
  passing: string[];
  /** Checks that need a route the mode shows is not the endpoint: blocked by its served check, neither failed nor passed. */
  blocked?: string[];
  /** The case stalls: the run gets --timeout-ms STALL_TIMEOUT_MS, whose expiry is what is tested. */
  stalls?: true;
}

const PLAIN = ['schema.chat-completion.matches-schema'];
const STREAMED = ['stream.events.done-last', 'stream.events.first-chunk-has-role', 'schema.stream-chunk.matches-schema'];
const UNTOUCHED = ['schema.model-list.matches-schema', 'schema.balance.matches-schema'];

const CASES: Case[] = [
  { mode: 'refused', affected: [...PLAIN, ...STREAMED, ...UNTOUCHED], says: /connection refused/, passing: [] },
  { mode: 'reset-before-response', affected: [...PLAIN, ...STREAMED], says: /HARNESS_RESET.*connection reset/, passing: UNTOUCHED },
  { mode: 'reset-during-response', affected: [...PLAIN, 'stream.events.done-last'], says: /HARNESS_RESET.*connection reset/, passing: UNTOUCHED },
  // One suite file, so the stalled requests wait at once: the case costs one headers timeout.
  { mode: 'stall-before-headers', stalls: true, only: 'schema.*', affected: [...PLAIN, 'schema.stream-chunk.matches-schema', 'schema.error-envelope.matches-schema'], says: /HARNESS_TIMEOUT.*no response headers within \d+ ms/, passing: UNTOUCHED },
  { mode: 'stall-mid-stream', stalls: true, only: 'st*', affected: ['stream.events.done-last', 'stream.events.final-chunk-has-finish-reason'], says: /HARNESS_TIMEOUT.*stalled for \d+ ms/, passing: ['stateless.history.not-kept', 'stream.response.content-type-is-event-stream'] },
  { mode: 'endless-body', affected: [...PLAIN, 'stream.events.done-last'], says: /BODY_TOO_LARGE.*(cut at|longer than) \d+ bytes/, passing: UNTOUCHED },
  // An HTML page where the service answers JSON: whatever answers there is not the endpoint.
  { mode: 'not-json', only: 's*,endpoint.chat-completions-on-base-url.served', affected: ['endpoint.chat-completions-on-base-url.served'], says: /answered HTTP 200 with application\/json and a body that is not JSON \(response body is not JSON/, passing: UNTOUCHED, blocked: [...PLAIN, ...STREAMED] },
  { mode: 'invalid-utf8', affected: [...PLAIN, 'stream.events.all-parse'], says: /not valid UTF-8/, passing: UNTOUCHED },
  { mode: 'huge-error-body', affected: ['schema.error-envelope.matches-schema'], says: /BODY_TOO_LARGE.*cut at \d+ bytes/, passing: UNTOUCHED },
  { mode: 'redirect-loop', affected: [...PLAIN, ...STREAMED], says: /HTTP 307 location \/chat\/completions/, passing: UNTOUCHED },
  { mode: 'malformed-sse-event', affected: ['stream.events.all-parse'], says: /not JSON: \{"id": "chatcmpl-broken"/, passing: [...UNTOUCHED, ...PLAIN, 'stream.events.done-last'] },
  { mode: 'stream-error-no-done', affected: ['stream.events.done-last', 'stream.events.final-chunk-has-finish-reason'], says: /error event.*no `data: \[DONE\]`.*overloaded/, passing: [...UNTOUCHED, ...PLAIN] },
  { mode: 'server-error-everywhere', affected: [...PLAIN, ...STREAMED, ...UNTOUCHED], says: /HTTP 500/, passing: [] },
];


interface Outcome extends HostileRun {
  server: HostileServer;
}

const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function runAgainst(mode: HostileMode, only: string, stalls: boolean): Promise<Outcome> {
  const server = await startHostileServer(mode, { spec, now: () => new Date(NOW), maxStallMs: 60_000 });
  servers.push(server);
  // Enough slots that every stalled request waits at once: a stall costs one timeout, not one per wave.
  const run = await runHostile(server, tmp(), NOW, ['--only', only, '--concurrency', '16', ...(stalls ? ['--timeout-ms', String(STALL_TIMEOUT_MS)] : []), '--quiet']);
  return { ...run, server };
}

describe.concurrent('run against a hostile endpoint: it finishes, reports, exits 1, and says what happened', () => {
  test.each(CASES)('$mode', async ({ mode, only = 's*', affected, says, passing, blocked = [], stalls = false }) => {
    const run = await runAgainst(mode, only, stalls);
    const byId = new Map(run.results.map((r) => [r.checkId, r]));

    // The run finished within its timeouts and wrote every report.
    for (const file of ['report.json', 'report.md', 'junit.xml', 'report.html']) expect(existsSync(join(run.cell, file)), `${mode}: ${file}`).toBe(true);
    expect(existsSync(join(run.dir, 'summary.json'))).toBe(true);
    expect(run.results.length, `${mode}: ${run.stderr}`).toBeGreaterThanOrEqual(affected.length + passing.length);
    if (mode !== 'refused') expect(run.server.counts.broken, `${mode}: the server misbehaved`).toBeGreaterThan(0);

    // The checks aimed at the broken path fail or end in error, naming what happened.
    for (const id of affected) {
      const r = byId.get(id);
      expect(r, `${mode}: ${id} ran`).toBeDefined();
      expect(['fail', 'error'], `${mode}: ${id} is ${r!.verdict}: ${story(r!)}`).toContain(r!.verdict);
      expect(story(r!), `${mode}: ${id}`).toMatch(says);
    }
    // The others still ran, and pass.
    for (const id of passing) expect(byId.get(id)?.verdict, `${mode}: ${id}: ${byId.get(id) ? story(byId.get(id)!) : 'missing'}`).toBe('pass');
    for (const id of blocked) expect([byId.get(id)?.verdict, byId.get(id)?.skipKind], `${mode}: ${id}`).toEqual(['skip', 'blocked']);
    expect(run.code, `${mode}: exit code`).toBe(1);
  }, CASE_TIMEOUT_MS);
});

/*
 * The same endpoints with default settings (default concurrency, every check of a model): a dead
 * endpoint ends the run, reports written, exit 1. A stall costs one timeout: a route that timed out
 * is declared silent at once, and the endpoint once its root is too, so nothing more is sent and
 * what was already sent is abandoned. A 500 to everything declares nothing (it is an answer): each
 * check gets its 500 as evidence, fast. The stalls wait out --timeout-ms STALL_TIMEOUT_MS, not the
 * default 60 s (DEFAULT_TIMING, which a run given no timeout uses: cli/runFlags.test.ts), and their
 * evidence names the timeout the run was given. The bound is the test's own timeout (two minutes:
 * one timeout per request would take well over ten), never a measured duration, so a busy machine
 * cannot fail it.
 */
describe.concurrent('with default settings (a stall: --timeout-ms alone), a dead endpoint ends the run in about one timeout', () => {
  test.each([
    { mode: 'refused' as const, everywhere: false },
    { mode: 'server-error-everywhere' as const, everywhere: false },
    { mode: 'stall-before-headers' as const, everywhere: true },
    { mode: 'reset-before-response' as const, everywhere: true },
    // Chat alone hangs, the rest answers: the path is declared, the other paths are still judged.
    { mode: 'stall-before-headers' as const, everywhere: false },
    { mode: 'stall-mid-stream' as const, everywhere: false },
  ])('$mode (every path: $everywhere)', async ({ mode, everywhere }) => {
    const stalls = mode === 'stall-before-headers' || mode === 'stall-mid-stream';
    const server = await startHostileServer(mode, { spec, now: () => new Date(NOW), maxStallMs: 150_000, everywhere });
    servers.push(server);
    const { code, cell, results } = await runHostile(server, tmp(), NOW, ['--quiet', ...(stalls ? ['--timeout-ms', String(STALL_TIMEOUT_MS)] : [])]);
    expect(code).toBe(1);
    for (const file of ['report.md', 'junit.xml', 'report.html']) expect(existsSync(join(cell, file))).toBe(true);
    const listing = results.map((r) => `${r.checkId} ${r.verdict} ${r.reason ?? ''}`).join('\n');
    if (mode === 'server-error-everywhere') {
      // Answers, not silence: nothing is declared unresponsive, and the 500s are the evidence.
      expect(results.filter((r) => /unresponsive|not sent/.test(r.reason ?? '')), listing).toEqual([]);
      expect(results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').length, listing).toBeGreaterThan(0);
      return;
    }
    // The checks that were not sent end in error citing the first cause (or the probe's own failure, which they waited on).
    expect(results.filter((r) => r.verdict === 'error' && /declared unresponsive: .*HARNESS_[A-Z]+|^HARNESS_(TIMEOUT|RESET|CONNECT): /.test(r.reason ?? '')).length, listing).toBeGreaterThan(0);
    // A stall is reported after the timeout the run was given.
    if (stalls) expect(results.map(story).join('\n'), listing).toMatch(new RegExp(`HARNESS_TIMEOUT.*(no response headers within|stalled for) ${STALL_TIMEOUT_MS} ms`));
  }, 120_000);
});
