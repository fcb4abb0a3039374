import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { runCli } from '#harness/testing/cliRun.ts';

/**
 * Issue 47, item 2, as a user meets it: a server with an encoding bug (Python's ASCII codec, say)
 * answers 500 to any request holding a character outside ASCII. Every request the harness sent was
 * ASCII, so it passed. Behind a proxy that does exactly that, the check of text in other scripts
 * fails at must, and the run exits 1; the clean emulator, sent the same requests, is green.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-non-ascii-');
const NOW = '2026-06-01T00:00:00Z';
const KEY_VAR = 'SVC_NON_ASCII_KEY';
const KEY = 'sk-non-ascii-key';
const CHECK = 'answer.non-ascii.answered-intact';
/** The checks that send text outside ASCII on purpose (the property's drawn requests among them), and the ASCII stop checks beside them. */
const ONLY = 'answer.non-ascii.*,output.stop-sequence.*,rule.chat.stop.*,property.valid-requests.*';

let emu: RunningEmulator;
let proxy: TestServer;

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: [KEY], now: () => new Date(NOW) });
  process.env[KEY_VAR] = KEY;
  // The body as bytes: any byte above 0x7F is a character outside ASCII in UTF-8.
  proxy = await startProxy(emu.url, {
    answer: (_req, path, body) => (path.endsWith('/chat/completions') && body.some((b) => b > 0x7f) ? { status: 500, body: { error: { message: "'ascii' codec can't encode character", type: 'server_error', code: 'internal_error' } } } : undefined),
  });
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await proxy.close();
  await emu.close();
});

async function run(url: string): Promise<{ code: number; results: CheckResult[] }> {
  const { code, results } = await runCli(['--base-url', url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash', '--only', ONLY, '--quiet'], tmp());
  return { code, results };
}

describe('a server that answers 500 to text outside ASCII', () => {
  let behind: { code: number; results: CheckResult[] };
  let clean: { code: number; results: CheckResult[] };
  beforeAll(async () => {
    [behind, clean] = await Promise.all([run(proxy.url), run(emu.url)]);
  }, 120_000);

  test('fails the check of text in other scripts at must, with the 500 and its ASCII twin answered 200, and exits 1', () => {
    expect(behind.code).toBe(1);
    const r = behind.results.find((x) => x.checkId === CHECK);
    expect(r).toMatchObject({ verdict: 'fail', severity: 'must' });
    expect(r?.failures?.[0]).toMatchObject({ message: expect.stringMatching(/was answered HTTP 500, while the same request with its characters outside ASCII left out was answered 200$/), defect: { kind: 'status', expected: '200', got: 500 } });
    // Drawn valid requests meet it too.
    expect(behind.results.find((x) => x.checkId === 'property.valid-requests.accepted')?.verdict).toBe('fail');
    // The stop check in other scripts leaves the defect to it: one defect, one must failure there.
    expect(behind.results.find((x) => x.checkId === 'output.stop-sequence.non-ascii-ends-output')).toMatchObject({ verdict: 'skip', handedTo: [expect.objectContaining({ check: CHECK })] });
  });

  test('the clean emulator, sent the same requests, is green: both checks pass, having judged the text', () => {
    expect(clean.code).toBe(0);
    expect(clean.results.filter((x) => x.verdict === 'fail' && x.severity === 'must').map((x) => x.checkId)).toEqual([]);
    expect(clean.results.find((x) => x.checkId === CHECK)).toMatchObject({ verdict: 'pass', reason: expect.stringContaining('repeated intact') });
    expect(clean.results.find((x) => x.checkId === 'output.stop-sequence.non-ascii-ends-output')?.verdict).toBe('pass');
  });
});
