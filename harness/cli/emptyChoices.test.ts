import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { causesOf } from '#harness/results/index.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { runCli } from '#harness/testing/cliRun.ts';

/**
 * Issue 39, as a new user met it: an endpoint that answers every non-streamed chat completion with
 * `"choices": []` was said to PASS, each check handing the defect to another until none held it.
 * Now the defect fails the run at must, reported once (one cause, with its reproducer), and every
 * check that could not judge for it is a skip naming that cause's check as data.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-empty-choices-');
const NOW = '2026-06-01T00:00:00Z';
const KEY_VAR = 'SVC_EMPTY_CHOICES_KEY';
const SCHEMA = 'schema.chat-completion.matches-schema';

let emu: RunningEmulator;
let server: TestServer;

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: ['sk-empty-choices-key'], now: () => new Date(NOW) });
  process.env[KEY_VAR] = 'sk-empty-choices-key';
  server = await startProxy(emu.url, {
    rewriteJson: (body, status, request) => (status === 200 && request.path.endsWith('/chat/completions') && typeof body === 'object' && body !== null && 'choices' in body ? { ...body, choices: [] } : body),
  });
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await server.close();
  await emu.close();
});

describe('an endpoint whose completions carry no choice', () => {
  let code: number;
  let results: CheckResult[];
  let stderr: string[];
  beforeAll(async () => {
    const dir = tmp();
    const io = captureIO();
    ({ code, results } = await runCli(['--base-url', server.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash'], dir, io));
    stderr = io.err;
  }, 120_000);

  test('fails at must, and exits 1', () => {
    expect(code).toBe(1);
    expect(results.find((r) => r.checkId === SCHEMA)).toMatchObject({ verdict: 'fail', severity: 'must' });
  });

  test('names the defect once: one must cause, at /choices, with a curl reproducer', () => {
    const must = results.filter((r) => r.severity === 'must' && r.verdict === 'fail');
    const causes = causesOf(must).filter((c) => c.severity === 'must');
    // The one must cause of the run: every check that met the empty choices reports it there, or hands it on.
    expect(causes.map((c) => c.headline)).toEqual(['/choices: must NOT have fewer than 1 items']);
    const failure = must.flatMap((r) => r.failures ?? []).find((f) => f.path === '/choices');
    expect(failure?.reproducer?.curl).toContain(`${"$"}{${KEY_VAR}}`);
  });

  test('the checks that met it are skips naming the schema check as data, never passes over nothing', () => {
    const handed = results.filter((r) => r.handedTo?.some((h) => h.check === SCHEMA));
    expect(handed.length).toBeGreaterThan(5);
    for (const r of handed) expect(r).toMatchObject({ verdict: 'skip', skipKind: 'inconclusive' });
    expect(handed.every((r) => r.handedTo!.every((h) => h.defect?.startsWith('/choices')))).toBe(true);
  });

  test('the progress lines said the hand-offs were pending', () => {
    expect(stderr.some((l) => / pend  .*handed to schema\.chat-completion\.matches-schema/.test(l))).toBe(true);
  });
});
