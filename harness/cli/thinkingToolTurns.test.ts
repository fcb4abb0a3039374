import { afterAll, beforeAll, expect, test } from 'vitest';
import { runChecks } from '#harness/runner/runChecks.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget, type Target } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import { startProxy } from '#harness/testing/proxy.ts';

/**
 * A thinking tool-call turn sent back without its reasoning_content and refused is a failure only
 * where the same turn with it is answered: a gateway refusing every tool round trip shows nothing
 * of reasoning_content. (The emulator's `thinking-tool-turn-needs-reasoning` fault, as production
 * refuses, shows the failure: harness/cli/faultWalk.test.ts.)
 */
const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');
const ID = 'conversation.thinking-tool-turns.answered-without-reasoning-content';
let target: Target;
beforeAll(async () => {
  target = await emulatorTarget(spec, { now: NOW });
});
afterAll(async () => target.close());

test('every tool round trip refused, with reasoning_content or without: inconclusive, naming why', async () => {
  const refuseToolTurns = (_req: unknown, path: string, raw: Buffer) => {
    if (path !== '/chat/completions') return undefined;
    const body = JSON.parse(raw.toString('utf8') || '{}') as { messages?: { role?: string }[] };
    return body.messages?.some((m) => m.role === 'tool') ? { status: 400, body: { error: { message: 'tool results are not supported', type: 'invalid_request_error', code: 'unsupported', param: null } } } : undefined;
  };
  const proxy = await startProxy(target.baseUrl, { answer: refuseToolTurns });
  try {
    const at = { ...target, baseUrl: proxy.url, messagesBaseUrl: target.messagesBaseUrl.replace(target.baseUrl, proxy.url) };
    const { results } = await runChecks(emulatorRunConfig(at, ['svc-v4-flash'], NOW, { only: [ID] }));
    const r = results.find((x) => x.checkId === ID)!;
    expect([r.verdict, r.skipKind, r.reason]).toEqual(['skip', 'inconclusive', expect.stringMatching(/refused with its reasoning_content too \(HTTP 400; without it HTTP 400\)/)]);
  } finally {
    await proxy.close();
  }
});
