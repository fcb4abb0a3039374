import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { skipKindOf, type RunRecord } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { KeyRefusal } from '#harness/transport/index.ts';
import { main } from './main.ts';

/*
 * A wrong key (the variable holding another service's key) is refused with 401 by every endpoint:
 * the run ends after a few requests, says so once on stderr naming the variable (never the key),
 * the auth checks that send a wrong or no key on purpose are still judged, every other check is
 * skipped blocked, and the record says the run ended early. The same run with the right key is a
 * normal run. The emulator stands behind a proxy that counts what reaches it.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-key-refused-');
const NOW = '2026-06-01T00:00:00Z';
const RIGHT = 'sk-key-refused-right-0123456789';
const WRONG = 'sk-key-refused-WRONG-9876543210';
const KEY_VAR = 'SVC_KEY_REFUSED_TEST_KEY';
const AUTH_CHECKS = ['auth.missing-key.returns-401', 'auth.malformed-key.returns-401', 'auth.wrong-key.returns-401'];

let emu: RunningEmulator;
let proxy: TestServer;
const seen = { requests: 0, withKey: 0 };

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: [RIGHT], now: () => new Date(NOW) });
  proxy = await startProxy(emu.url, {
    answer: (req) => {
      seen.requests += 1;
      if (String(req.headers.authorization ?? '').includes(process.env[KEY_VAR] ?? '\0')) seen.withKey += 1;
      return undefined;
    },
  });
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await proxy.close();
  await emu.close();
});

async function run(key: string): Promise<{ code: number; record: RunRecord; err: string[]; sent: typeof seen }> {
  process.env[KEY_VAR] = key;
  seen.requests = 0;
  seen.withKey = 0;
  const dir = tmp();
  const io = captureIO();
  const code = await main(['run', '--base-url', proxy.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash', '--report-dir', dir], io);
  const cell = join(dir, `127.0.0.1_${new URL(proxy.url).port}`, 'svc-v4-flash');
  const record = JSON.parse(readFileSync(join(cell, 'report.json'), 'utf8')) as RunRecord;
  return { code, record, err: io.err, sent: { ...seen } };
}

const byId = (results: readonly CheckResult[], id: string) => results.find((r) => r.checkId === id);

describe('a key the endpoint refuses', () => {
  test('ends the run after a few requests, said once, every check blocked (the auth checks too: their refusals show nothing where the key is refused); exit 1', async () => {
    const { code, record, err, sent } = await run(WRONG);
    const message = `the endpoint refused the API key: every authenticated request was answered 401 (${KeyRefusal.THRESHOLD} of ${KeyRefusal.THRESHOLD}). Check that $${KEY_VAR} (--api-key-env) holds a key for ${proxy.url}.`;
    expect(record.endedEarly).toEqual({ kind: 'key-refused', message });
    expect(err.filter((l) => l.includes('refused the API key')), err.join('\n')).toEqual([`svc-conformance: ${message}`]);
    // Never the key's value, anywhere the run wrote or printed.
    expect(err.join('\n')).not.toContain(WRONG);
    expect(JSON.stringify(record)).not.toContain(WRONG);
    // The served-gate's probes go at once (one per route and a streamed one), then the auth checks' own three.
    const routes = Object.values(spec.endpoints).reduce((n, ep) => n + ep.bases.length, 0);
    expect(sent.withKey).toBeLessThanOrEqual(routes + 2);
    expect(sent.requests - sent.withKey).toBe(AUTH_CHECKS.length);
    for (const id of AUTH_CHECKS) expect([byId(record.results, id)?.skipKind, byId(record.results, id)?.reason], id).toEqual(['blocked', expect.stringMatching(/the same request with the run's key is refused too$/)]);
    const others = record.results.filter((r) => !AUTH_CHECKS.includes(r.checkId));
    expect(others.length).toBeGreaterThan(100);
    // A check that does not apply (the strict profile is off) stays so; every other one is blocked by the key.
    const blocked = others.filter((r) => r.verdict === 'skip' && r.skipKind === 'blocked' && /^not (sent|judged): the key was refused/.test(r.reason ?? ''));
    const rest = others.filter((r) => !blocked.includes(r));
    expect(rest.filter((r) => skipKindOf(r) !== 'not-applicable').map((r) => `${r.checkId} ${r.verdict} ${r.reason ?? ''}`)).toEqual([]);
    expect(blocked.length).toBeGreaterThan(100);
    expect(code).toBe(1);
  }, 120_000);

  test('control: the right key runs the plan as ever, nothing ended early', async () => {
    const { code, record, err, sent } = await run(RIGHT);
    expect(record.endedEarly).toBeUndefined();
    expect(err.join('\n')).not.toContain('refused the API key');
    expect(sent.withKey).toBeGreaterThan(100);
    for (const id of AUTH_CHECKS) expect(byId(record.results, id)?.verdict, id).toBe('pass');
    expect(record.results.filter((r) => r.skipKind === 'blocked')).toEqual([]);
    expect(record.results.filter((r) => r.verdict === 'pass').length).toBeGreaterThan(100);
    expect(code).toBe(0);
  }, 120_000);
});
