import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import type { RunRecord } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * One defect, many checks: a gateway whose error envelopes carry `type: null` breaks every refusal
 * the run provokes. The report leads with that one cause, once, listing the checks it affected.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-causes-');
const NOW = '2026-06-01T00:00:00Z';
let emu: RunningEmulator;
let gateway: TestServer;

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: ['sk-causes-key-0001'], now: () => new Date(NOW) });
  gateway = await startProxy(emu.url, {
    rewriteJson: (body, status) => (status >= 400 && typeof body === 'object' && body !== null && 'error' in body ? { error: { ...(body as { error: object }).error, type: null } } : body),
  });
  process.env.SVC_CAUSES_KEY = 'sk-causes-key-0001';
});
afterAll(async () => {
  delete process.env.SVC_CAUSES_KEY;
  await gateway.close();
  await emu.close();
});

describe('a gateway whose error envelopes have type: null', () => {
  test('the report shows that one cause once, with the checks it affected, before the failures', async () => {
    const dir = tmp();
    const code = await main(['run', '--base-url', gateway.url, '--api-key-env', 'SVC_CAUSES_KEY', '--model', 'svc-v4-flash', '--now', NOW, '--report-dir', dir, '--quiet'], captureIO());
    expect(code).toBe(1);
    const cell = join(dir, `127.0.0.1_${new URL(gateway.url).port}`, 'svc-v4-flash');
    const record = JSON.parse(readFileSync(join(cell, 'report.json'), 'utf8')) as RunRecord;
    const typeNull = record.causes!.filter((c) => /\/error\/type: must be string/.test(c.message));
    expect(typeNull).toHaveLength(1);
    expect(typeNull[0]!.affected.length).toBeGreaterThan(10);
    expect(typeNull[0]!.affected.map((a) => a.checkId)).toEqual(expect.arrayContaining(['schema.error-envelope.matches-schema', 'rule.chat.messages.non-empty', 'auth.wrong-key.returns-401']));
    // Every failure is still there, check by check; the causes add up to them.
    const failures = record.results.reduce((n, r) => n + (r.verdict === 'fail' ? (r.failures?.length ?? 0) : r.verdict === 'error' ? 1 : 0), 0);
    expect(record.causes!.reduce((n, c) => n + c.failures, 0)).toBe(failures);
    const md = readFileSync(join(cell, 'report.md'), 'utf8');
    expect(md.indexOf('## Causes: ')).toBeGreaterThan(0);
    expect(md.indexOf('## Causes: ')).toBeLessThan(md.indexOf('## Failures'));
    expect(md.match(/\/error\/type: must be string · /g)).toHaveLength(1);
    // Under the cause, what came back: status, content type, the body's first bytes.
    expect(md).toMatch(/- HTTP 4\d\d · content-type: application\/json/);
    expect(md).toMatch(/- \{"error":\{.*"type":null/);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/## Causes: \d+ failing checks? from \d+ causes?/);
  }, 60_000);
});
