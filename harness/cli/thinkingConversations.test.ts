import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { runChecks } from '#harness/runner/runChecks.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget, type Target } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { runCli } from '#harness/testing/cliRun.ts';

/**
 * Issue 47, item 3, as openclaw#73417 and kimi-cli#2141 report servers doing: in thinking mode, a
 * conversation whose earlier plain assistant turn is sent back with `content` only (as the
 * description's rule asks) is refused, 400 "reasoning_content missing". That is a failure at must
 * of the thinking plain-turns check, and of no check but those that send such a conversation; the
 * same turns with thinking disabled, and the clean emulator, are answered.
 */
const { spec } = loadSpec();
const NOW = '2026-06-01T00:00:00Z';
const ID = 'conversation.thinking-plain-turns.answered';
const KEY_VAR = 'SVC_THINKING_CONVERSATIONS_KEY';
const tmp = tempDirs('svc-thinking-conversations-');

type Message = { role?: string; tool_calls?: unknown[]; reasoning_content?: unknown };
let target: Target;
let proxy: TestServer;
let refused = 0;

/** A thinking request whose earlier plain assistant turn lacks reasoning_content: refused as those servers refuse it. */
function refusePlainThinkingTurns(_req: unknown, path: string, raw: Buffer) {
  if (!path.endsWith('/chat/completions')) return undefined;
  let body: { thinking?: { type?: string }; messages?: Message[] };
  try {
    // Some checks send bodies that are not JSON: those pass as they came.
    body = JSON.parse(raw.toString('utf8')) as typeof body;
  } catch {
    return undefined;
  }
  if (body === null || typeof body !== 'object' || body.thinking?.type !== 'enabled' || !Array.isArray(body.messages)) return undefined;
  const at = body.messages.findIndex((m) => m.role === 'assistant' && !(Array.isArray(m.tool_calls) && m.tool_calls.length > 0) && m.reasoning_content == null);
  if (at < 0) return undefined;
  refused += 1;
  return { status: 400, body: { error: { message: `reasoning_content missing in assistant message ${at} while thinking is enabled`, type: 'invalid_request_error', code: 'invalid_request', param: null } } };
}

beforeAll(async () => {
  target = await emulatorTarget(spec, { now: new Date(NOW) });
  proxy = await startProxy(target.baseUrl, { answer: refusePlainThinkingTurns });
  process.env[KEY_VAR] = target.apiKey;
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await proxy.close();
  await target.close();
});

test('the clean emulator answers the plain turns in both modes: a pass', async () => {
  const { results } = await runChecks(emulatorRunConfig(target, ['svc-v4-flash'], new Date(NOW), { only: [ID, 'conversation.tool-round-trip.answers-tool-result.thinking-disabled'] }));
  expect(results.map((r) => [r.checkId, r.verdict])).toEqual(expect.arrayContaining([[ID, 'pass'], ['conversation.tool-round-trip.answers-tool-result.thinking-disabled', 'pass']]));
});

describe('behind a proxy refusing thinking-mode plain turns sent back without reasoning_content', () => {
  let code: number;
  let results: CheckResult[];
  beforeAll(async () => {
    ({ code, results } = await runCli(['--quiet', '--base-url', proxy.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash'], tmp()));
  }, 120_000);

  test('the thinking plain-turns check fails at must, naming the mode and the refusal; the run exits 1', () => {
    expect(refused).toBeGreaterThan(0);
    const r = results.find((x) => x.checkId === ID)!;
    expect([r.verdict, r.severity]).toEqual(['fail', 'must']);
    expect(r.failures?.map((f) => f.message)).toEqual([expect.stringMatching(/^with thinking enabled, a conversation whose earlier plain assistant turn is sent back with `content` only, .* was answered HTTP 400: .*reasoning_content missing.*; a single turn in the same mode is answered$/)]);
    expect(code).toBe(1);
  });

  test('the conversations sent without thinking, and the thinking tool-call turn (advisory), are judged as before', () => {
    for (const id of ['conversation.assistant-turns.answered', 'conversation.tool-round-trip.answers-tool-result', 'conversation.tool-round-trip.answers-tool-result.thinking-disabled']) expect(results.find((x) => x.checkId === id)?.verdict, id).toBe('pass');
    expect(results.find((x) => x.checkId === 'conversation.thinking-tool-turns.answered-without-reasoning-content')?.verdict).toBe('pass');
  });

  test('no other check fails at must', () => {
    expect(results.filter((r) => r.verdict === 'fail' && r.severity === 'must').map((r) => r.checkId)).toEqual([ID]);
  });
});
