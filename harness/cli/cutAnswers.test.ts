import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { runCli } from '#harness/testing/cliRun.ts';

/**
 * An endpoint whose every completion is cut at max_tokens (finish_reason "length"), as a small model
 * runs to its cap (llama-server's, fixtures/llama-server/FINDINGS.md). A verdict on what the text
 * says is inconclusive then; a verdict on whether the answer reasoned is not, since reasoning comes
 * before the text.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-cut-');
const NOW = '2026-06-01T00:00:00Z';
const KEY_VAR = 'SVC_CUT_KEY';
let emu: RunningEmulator;
let proxy: TestServer;

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: ['sk-cut-answers-key'], now: () => new Date(NOW) });
  process.env[KEY_VAR] = 'sk-cut-answers-key';
  proxy = await startProxy(emu.url, {
    rewriteJson: (body) => {
      const choice = (body as { choices?: { finish_reason?: string }[] }).choices?.[0];
      if (choice) choice.finish_reason = 'length';
      return body;
    },
  });
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await proxy.close();
  await emu.close();
});

async function verdicts(only: string): Promise<Record<string, string>> {
  const { results } = await runCli(['--base-url', proxy.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash', '--only', only, '--quiet'], tmp());
  return Object.fromEntries(results.map((r) => [r.checkId, r.verdict === 'skip' ? `skip: ${r.reason}` : r.verdict]));
}

describe('answers cut at max_tokens', () => {
  test('thinking disabled: a cut answer without reasoning_content passes (it did not reason before the cut)', async () => {
    expect(await verdicts('rule.chat.thinking.disabled-no-reasoning')).toEqual({ 'rule.chat.thinking.disabled-no-reasoning': 'pass' });
  });

  test('control: a verdict on what the text says is inconclusive when the text was cut', async () => {
    expect(await verdicts('rule.chat.response-format.json-output')).toMatchObject({ 'rule.chat.response-format.json-output': expect.stringMatching(/^skip: .*cut off by max_tokens/) });
  });
});
