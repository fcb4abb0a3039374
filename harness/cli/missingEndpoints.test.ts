import { readFileSync } from 'node:fs';
import { featuresOf } from '#harness/spec/features.ts';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { causesOf } from '#harness/results/index.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';
import { runCli } from '#harness/testing/cliRun.ts';

/**
 * A server that keeps the contract where it serves, and serves neither the beta base nor the
 * balance: one must failure per missing endpoint, every check that needs one blocked by it (never
 * failed again, never passed); and with those features declared out of scope, a clean run.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-missing-');
const NOW = '2026-06-01T00:00:00Z';
/** What the server routes to the emulator; anything else gets its own 404, as a router answers an unknown path. */
const SERVED = new Set(['/chat/completions', '/models', '/v1/chat/completions', '/v1/models', '/anthropic/v1/messages']);

let emu: RunningEmulator;
let server: TestServer;
const KEY_VAR = 'SVC_MISSING_KEY';

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: ['sk-missing-endpoints-key'], now: () => new Date(NOW) });
  process.env[KEY_VAR] = 'sk-missing-endpoints-key';
  server = await startProxy(emu.url, {
    answer: (_req, path) => (SERVED.has(path) ? undefined : { status: 404, body: { error: { message: `Not Found: ${path}`, type: 'not_found_error', code: 'not_found' } } }),
  });
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await server.close();
  await emu.close();
});

async function run(extra: string[]): Promise<{ code: number; results: CheckResult[]; md: string }> {
  const dir = tmp();
  const { code, results } = await runCli(['--base-url', server.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash', '--model', 'svc-v4-pro', '--quiet', ...extra], dir);
  const md = readFileSync(join(dir, `127.0.0.1_${new URL(server.url).port}`, 'svc-v4-flash', 'report.md'), 'utf8');
  return { code, results, md };
}

const MISSING = ['endpoint.chat-completions-on-beta.served', 'endpoint.fim-completions-on-beta.served', 'endpoint.user-balance-on-base-url.served', 'endpoint.user-balance-on-v1.served'];

describe('an endpoint that serves neither the beta base nor the balance', () => {
  test('one must failure per missing endpoint; the checks that need one are blocked by it; exit 1', async () => {
    const { code, results } = await run([]);
    const mustFailures = results.filter((r) => r.severity === 'must' && (r.verdict === 'fail' || r.verdict === 'error'));
    expect(mustFailures.map((r) => r.checkId).sort()).toEqual(MISSING);
    // One failure each, the 404 of a path that does not exist its comparison, not a failure (nor a cause) of its own.
    for (const r of mustFailures) expect(r.failures?.map((f) => [f.evidence?.response?.status, f.comparison?.response?.status])).toEqual([[404, 404]]);
    expect(causesOf(mustFailures)).toHaveLength(MISSING.length);
    const blocked = results.filter((r) => r.verdict === 'skip' && r.reason?.startsWith('blocked by '));
    expect(blocked.every((r) => r.skipKind === 'blocked')).toBe(true);
    // FIM and prefix rules, the balance schema and spending order: skipped, naming what blocks them.
    for (const id of ['rule.fim.json-mode', 'rule.fim.thinking', 'rule.prefix.without-prefix-flag', 'rule.prefix.continues-prefix', 'schema.balance.matches-schema', 'balance.spending.granted-first']) {
      expect(blocked.map((r) => r.checkId), id).toContain(id);
    }
    expect(blocked.find((r) => r.checkId === 'rule.fim.thinking')?.reason).toMatch(/^blocked by endpoint\.fim-completions-on-beta\.served: a valid request to POST \{beta_base_url\}\/completions was answered HTTP 404, as a path that does not exist is/);
    // Served endpoints are judged as ever: prefix outside the beta base is still refused, chat still passes.
    expect(results.find((r) => r.checkId === 'rule.prefix.requires-beta-base')?.verdict).toBe('pass');
    expect(results.find((r) => r.checkId === 'endpoint.chat-completions-on-base-url.served')?.verdict).toBe('pass');
    expect(code).toBe(1);
  }, 60_000);

  test('with --without fim,prefix,balance: those checks are out of scope, the report says so at the top, exit 0', async () => {
    const { code, results, md } = await run(['--without', 'fim,prefix,balance']);
    expect(results.filter((r) => r.severity === 'must' && (r.verdict === 'fail' || r.verdict === 'error')).map((r) => `${r.checkId}: ${r.reason ?? r.failures?.[0]?.message}`)).toEqual([]);
    for (const id of MISSING) expect(results.find((r) => r.checkId === id)?.reason, id).toMatch(/^out of scope: the run leaves out (fim|prefix_completion|balance) \(--without\)$/);
    expect(results.find((r) => r.checkId === 'rule.fim.thinking')?.reason).toMatch(/^out of scope/);
    expect(md).toContain('> Out of scope (--without): `fim`, `prefix_completion`, `balance`.');
    expect(code).toBe(0);
  }, 60_000);

  test('--without names a feature of the spec: anything else is a usage error listing them', async () => {
    const io = captureIO();
    expect(await main(['run', '--base-url', server.url, '--api-key-env', KEY_VAR, '--without', 'fax', '--quiet'], io)).toBe(2);
    expect(io.err.join('\n')).toContain('--without "fax" is no feature of the spec; the features are chat, models, balance, fim, prefix_completion, messages, streaming, tools, json_output, thinking, caching.');
  });

  test('--help lists the features the spec has', async () => {
    const io = captureIO();
    await main(['run', '--help'], io);
    const features = featuresOf(spec).sort();
    const listed = /--without F,\.\.\.[^\n]*\n\s+([a-z_,\s]+?)\n\s+\(a unique/.exec(io.out.join('\n'))?.[1]?.split(/,\s*/).sort();
    expect(listed).toEqual(features);
  });
});
