import { resultOf } from '#harness/testing/results.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repeatStatsOf, summarize, type RunRecord } from '#harness/results/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from '../main.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-diff-'));
const BASE = join(dir, 'base.json');
const BROKEN = join(dir, 'broken.json');
const common = ['run', '--quiet', '--model', 'svc-v4-flash', '--only', 'stream', '--now', '2026-06-01T00:00:00Z'];

beforeAll(async () => {
  expect(await main([...common, '--report-dir', join(dir, 'b'), '--json', BASE], captureIO())).toBe(0);
  expect(await main([...common, '--fault', 'stream-no-done', '--report-dir', join(dir, 'n'), '--json', BROKEN], captureIO())).toBe(1);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The base run with `stream.events.done-last` changed as `change` says (its summary counted again), written to `name`. */
function baseWithDoneLast(name: string, change: (r: RunRecord['results'][number]) => RunRecord['results'][number]): string {
  const bundle = JSON.parse(readFileSync(BASE, 'utf8')) as { records: RunRecord[] };
  const record = bundle.records[0]!;
  record.results = record.results.map((r) => (r.checkId === 'stream.events.done-last' ? change(r) : r));
  record.summary = summarize(record.results);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(bundle));
  return path;
}

describe('svc-conformance diff', () => {
  test('a check that passed and now fails is a regression: listed, exit 1', async () => {
    const io = captureIO();
    expect(await main(['diff', BASE, BROKEN], io)).toBe(1);
    const out = io.out.join('\n');
    expect(out).toMatch(/newly failing: [1-9]/);
    expect(out).toContain('stream.events.done-last (svc-v4-flash, must) was pass, now fail');
  });
  test('the other way round the check is newly passing: exit 0', async () => {
    const io = captureIO();
    expect(await main(['diff', BROKEN, BASE], io)).toBe(0);
    expect(io.out.join('\n')).toMatch(/newly passing: [1-9]/);
  });
  test('two runs that share no cell (another target) cannot be compared: exit 2, naming the cells of each', async () => {
    const bundle = JSON.parse(readFileSync(BASE, 'utf8')) as { records: RunRecord[] };
    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ records: bundle.records.map((r) => ({ ...r, target: { kind: 'live', baseUrl: 'https://api.example.com', messagesBaseUrl: 'https://api.example.com/anthropic' } })) }));
    const io = captureIO();
    expect(await main(['diff', BASE, elsewhere], io)).toBe(2);
    expect(io.err.join('\n')).toContain('diff: the two runs share no cell (target and model): BASE holds svc-v4-flash at emulator; NEW holds svc-v4-flash at https://api.example.com');
  });
  test('checks that stopped being judged are listed as such, and fail the comparison under --strict', async () => {
    // The same run with a route now blocked: what passed shows nothing, and nothing regressed.
    const blocked = 'blocked by endpoint.chat-completions-on-base-url.served: answered 200 with a web page';
    const after = baseWithDoneLast('blocked.json', (r) => resultOf({ ...r, verdict: 'skip', skipKind: 'blocked', reason: blocked }));
    const io = captureIO();
    expect(await main(['diff', BASE, after], io)).toBe(0);
    expect(io.out).toContain('no longer judged: 1');
    expect(io.out).toContain(`  stream.events.done-last (svc-v4-flash, must) was pass, now skip: ${blocked}`);
    const strict = captureIO();
    expect(await main(['diff', BASE, after, '--strict'], strict)).toBe(1);
    expect(strict.out.join('\n')).toContain('FAIL under --strict: 1 must-check is no longer judged (listed above)');
  });
  test('a run against itself changes nothing', async () => {
    const io = captureIO();
    expect(await main(['diff', BASE, BASE], io)).toBe(0);
    expect(io.out).toContain('newly failing: 0');
  });
  test('a check that passed and is now flaky is newly flaky, a regression unless --allow-flaky', async () => {
    const flaky = baseWithDoneLast('flaky.json', (r) => resultOf({ ...r, verdict: 'flaky', reason: 'flaky: 1 of 2 runs passed', failures: [{ message: 'no [DONE]' }], repeat: repeatStatsOf(2, 1, 1) }));
    const io = captureIO();
    expect(await main(['diff', BASE, flaky], io)).toBe(1);
    expect(io.out).toContain('newly flaky: 1');
    expect(io.out).toContain('  stream.events.done-last (svc-v4-flash, must) was pass, now flaky');
    expect(io.out).toContain('newly failing: 0');
    expect(await main(['diff', BASE, flaky, '--allow-flaky'], captureIO())).toBe(0);
    const back = captureIO();
    expect(await main(['diff', flaky, BASE], back)).toBe(0);
    expect(back.out).toContain('  stream.events.done-last (svc-v4-flash, must) was flaky, now pass');
  });

  test('a file that is not a report, or a missing argument: exit 2', async () => {
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"hello": 1}');
    expect(await main(['diff', BASE, junk], captureIO())).toBe(2);
    expect(await main(['diff', BASE], captureIO())).toBe(2);
  });
});

describe('run --baseline', () => {
  test('a regression against the baseline fails the run', async () => {
    expect(await main([...common, '--fault', 'stream-no-done', '--report-dir', join(dir, 'r1'), '--baseline', BASE], captureIO())).toBe(1);
  }, 60_000);
  test('a gap the baseline already had does not', async () => {
    expect(await main([...common, '--fault', 'stream-no-done', '--report-dir', join(dir, 'r2'), '--baseline', BROKEN], captureIO())).toBe(0);
  }, 60_000);
  test('an unreadable baseline stops the run before it starts: exit 2', async () => {
    const io = captureIO();
    expect(await main([...common, '--report-dir', join(dir, 'r3'), '--baseline', join(dir, 'nope.json')], io)).toBe(2);
    expect(io.err.join('\n')).toContain('nope.json');
  });
});
