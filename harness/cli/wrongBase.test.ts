import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import type { RunRecord, RunSummary } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * Issue 48: `--base-url http://127.0.0.1:PORT/v1` against the emulator, the README's own mistake.
 * The harness adds /v1 itself, so it asks /v1/v1/...: the outcome line, summary.md and every report
 * lead with the base URL's mistake and the base to try, and the routes it made unreachable are one
 * cause, the base URL's, not the endpoint's. The run still fails (exit 1): the endpoint was not
 * judged where the description places it.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-wrong-base-');
const NOW = '2026-06-01T00:00:00Z';
const KEY_VAR = 'SVC_WRONG_BASE_KEY';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: ['sk-wrong-base-key-0123456789'], now: () => new Date(NOW) });
  process.env[KEY_VAR] = 'sk-wrong-base-key-0123456789';
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await emu.close();
});

async function run(baseUrl: string, extra: string[] = []) {
  const dir = tmp();
  const io = captureIO();
  const code = await main(['run', '--base-url', baseUrl, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash', '--clients', 'none', '--quiet', '--report-dir', dir, '--json', join(dir, 'all.json'), ...extra], io);
  const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { summary: RunSummary; records: RunRecord[] };
  const cellDir = join(dir, readdirSync(dir).find((n) => n.startsWith('127.0.0.1_'))!, 'svc-v4-flash');
  return { code, io, all, dir, cell: (f: string) => readFileSync(join(cellDir, f), 'utf8') };
}

describe('a base URL given with what the harness adds itself', () => {
  test('ending in /v1: the outcome line, summary.md and every report lead with it and the base to try; its routes are one cause, its own', async () => {
    const { code, io, all, dir, cell } = await run(`${emu.url}/v1`);
    const lead = `the base URL ${emu.url}/v1 ends in /v1, which the harness adds itself ({base_url}/v1): try --base-url ${emu.url}.`;
    expect(code).toBe(1);
    // The outcome line: what the user got wrong, and what to try.
    expect(io.out.find((l) => l.startsWith('FAIL: '))).toMatch(new RegExp(`^FAIL: ${lead.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} The 6 routes not served under it \\(asked at ${emu.url}/v1/v1/\\S+ and the like\\) are what that caused, not defects of the endpoint$`));
    const md = (text: string) => text.replace(/_/g, '\\_');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n')[2]).toBe(`**${md(lead)}${md(all.summary.reason.slice(lead.length))}.**`);
    expect(cell('report.md').split('\n')[2]).toMatch(/^\*\*the base URL \S+\/v1 ends in \/v1, which the harness adds itself/);
    expect(cell('report.html')).toContain(`try --base-url ${emu.url}.`);
    expect(cell('junit.xml')).toMatch(new RegExp(`<testcase name="run\\.outcome" [^>]*>\\s*<failure message="FAIL: the base URL [^"]*try --base-url ${emu.url.replace(/[.]/g, '\\.')}\\.[^"]*" type="wrong-base">`));
    // Typed, in the record: what it ends in, the base to try, the checks it caused.
    const [record] = all.records;
    expect(record!.wrongBase).toMatchObject({ ending: '/v1', kind: 'base', tryBaseUrl: emu.url });
    // The routes it made unreachable: one cause, the base URL's, with their evidence (404 at /v1/v1/...).
    expect(all.summary.causes).toHaveLength(1);
    expect(all.summary.causes![0]).toMatchObject({ message: `not served under a base URL ending in /v1: try --base-url ${emu.url}`, failures: 6 });
    expect(all.summary.causes![0]!.affected.map((a) => a.checkId).sort()).toEqual([...record!.wrongBase!.checks].sort());
    // Everything else was judged, and held: the emulator serves {base_url}/... at /v1/... too.
    expect(record!.results.filter((r) => (r.verdict === 'fail' || r.verdict === 'error') && !record!.wrongBase!.checks.includes(r.checkId))).toEqual([]);
    expect(io.out.find((l) => l.startsWith('svc-v4-flash @ '))).toContain('(6 must, 0 should, 0 advisory; 6 of them caused by the base URL)');
  }, 60_000);

  test('ending in a route: nothing is served under it; the base to try is what comes before it', async () => {
    const { code, io, all } = await run(`${emu.url}/chat/completions`);
    expect(code).toBe(1);
    expect(all.records[0]!.wrongBase).toMatchObject({ ending: '/chat/completions', kind: 'route', tryBaseUrl: emu.url });
    expect(io.out.find((l) => l.startsWith('FAIL: '))).toMatch(new RegExp(`^FAIL: the base URL ${emu.url}/chat/completions ends in the route /chat/completions \\(\\{base_url\\}/chat/completions\\), which the harness adds itself: try --base-url ${emu.url}\\.`));
  }, 60_000);

  test('the base to try is judged as any base: no mistake said, nothing blamed on it', async () => {
    const { code, io, all } = await run(emu.url, ['--only', 'endpoint.']);
    expect(code).toBe(0);
    expect(all.records[0]!.wrongBase).toBeUndefined();
    expect(io.text()).not.toContain('try --base-url');
  }, 60_000);

  test('an endpoint that serves only below /v1 (claude-code-router): the base to try, asked, serves nothing, so no mistake is said and its own route failures stand', async () => {
    // /v1/x goes to the emulator's /x; /v1/v1/x, and anything not below /v1, is 404, as such a router answers.
    const onlyV1 = await startProxy(emu.url, {
      answer: (_req, path) => (path.startsWith('/v1/') && !path.startsWith('/v1/v1/') ? undefined : { status: 404, body: { error: { message: `Not Found: ${path}`, type: 'not_found_error', code: 'not_found' } } }),
      rewritePath: (path) => path.replace(/^\/v1\//, '/'),
    });
    try {
      const { code, io, all } = await run(`${onlyV1.url}/v1`, ['--only', 'endpoint.']);
      expect(code).toBe(1);
      expect(all.records[0]!.wrongBase).toBeUndefined();
      expect(io.text()).not.toContain('try --base-url');
      // Its {base_url}/v1 alias (asked at /v1/v1/...) is not served: the endpoint's own failure, as is.
      const failing = all.records[0]!.results.filter((r) => r.verdict === 'fail').map((r) => r.checkId);
      expect(failing).toContain('endpoint.chat-completions-on-v1.served');
    } finally {
      await onlyV1.close();
    }
  }, 60_000);
});
