import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import type { RunRecord, RunSummary } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * Issue 48: a 200 whose body is the error envelope is a refusal sent as a success, and every text
 * about it says so: its failures' messages and every cause text (summary.json's, report.md's,
 * summary.md's), never only "expected HTTP 400, got 200", "/: missing required field `id`" or "no
 * chunk in the stream to judge" beside evidence that shows the error.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-error-200-');
const NOW = '2026-06-01T00:00:00Z';
const KEY_VAR = 'SVC_ERROR_200_KEY';
const SAID = 'rate_limit_error quota_exceeded: "upstream quota exceeded"';

let emu: RunningEmulator;
let proxy: TestServer;

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: ['sk-error-200-key-0123456789'], now: () => new Date(NOW) });
  process.env[KEY_VAR] = 'sk-error-200-key-0123456789';
  // A gateway that answers every chat request asking for `n` (the rule checks' do not) with a 200 holding the error envelope; the others pass through.
  proxy = await startProxy(emu.url, {
    answer: (req, path, body) => (req.method === 'POST' && path === '/chat/completions' && !body.toString('utf8').includes('"n":') ? { status: 200, body: { error: { message: 'upstream quota exceeded', type: 'rate_limit_error', code: 'quota_exceeded', param: null } } } : undefined),
  });
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await proxy.close();
  await emu.close();
});

describe('a 200 whose body is the error envelope', () => {
  test('is named as one in every failure and cause it shows in, and only there', async () => {
    const dir = tmp();
    const only = 'schema.chat-completion.matches-schema,rule.chat.messages.non-empty,stream.events.done-last';
    const code = await main(['run', '--base-url', proxy.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash', '--clients', 'none', '--only', only, '--quiet', '--report-dir', dir, '--json', join(dir, 'all.json')], captureIO());
    expect(code).toBe(1);
    const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { summary: RunSummary; records: RunRecord[] };
    const failures = all.records.flatMap((r) => r.results.flatMap((x) => x.failures ?? []));
    // The answers the gateway gave: a 200 holding the envelope, as a JSON body (streamed requests too: no event, that body).
    const bodyOf = (f: (typeof failures)[number]) => f.evidence?.response?.body ?? (f.evidence?.response?.text ? (JSON.parse(f.evidence.response.text) as unknown) : undefined);
    const enveloped = failures.filter((f) => f.evidence?.response?.status === 200 && (bodyOf(f) as { error?: unknown } | undefined)?.error !== undefined);
    expect(enveloped.some((f) => f.evidence?.request.body !== undefined && (f.evidence.request.body as { stream?: boolean }).stream === true)).toBe(true);
    expect(enveloped.length).toBeGreaterThanOrEqual(3);
    for (const f of enveloped) {
      expect(f.errorEnvelope).toBe(SAID);
      expect(f.message.startsWith(`answered 200 with the error envelope (${SAID}): `), f.message).toBe(true);
    }
    // Every cause whose failures are such answers says so, in its message and its headline, in every report.
    const causes = all.summary.causes!;
    expect(causes.length).toBeGreaterThan(0);
    for (const c of causes) {
      expect(c.message, c.key).toContain(`answered 200 with the error envelope (${SAID})`);
      expect(c.headline, c.key).toContain(`answered 200 with the error envelope (${SAID})`);
    }
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    const causeLines = md.split('\n').filter((l) => /^\d+\. \*\*(must|should|advisory)\*\* · /.test(l));
    expect(causeLines.length).toBe(causes.length);
    for (const l of causeLines) expect(l).toContain('answered 200 with the error envelope (rate\\_limit\\_error quota\\_exceeded');
    // Named exactly where the answer is one.
    expect(failures.filter((f) => f.errorEnvelope !== undefined)).toEqual(enveloped);
  }, 60_000);
});
