import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { defaultModels } from '#harness/checks/index.ts';
import type { FaultId } from '#harness/emulator/index.ts';
import { runChecks } from '#harness/runner/runChecks.ts';
import { executeCheck, UNTRACKED } from '#harness/runner/execute.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import type { CheckContext } from '../context.ts';
import { anthropicClientChecks } from './anthropic.ts';
import { openaiClientChecks } from './openai.ts';

const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');

async function runOn(faults: FaultId[], selection: { only?: string[]; skip?: string[] } = { only: ['client.*'] }) {
  const target = await emulatorTarget(spec, { now: NOW, faults });
  try {
    return await runChecks(emulatorRunConfig(target, defaultModels(spec), NOW, selection));
  } finally {
    await target.close();
  }
}

const said = (results: readonly CheckResult[], id: string) =>
  results.filter((r) => r.checkId === id && r.model === 'svc-v4-flash').map((r) => (r.verdict === 'fail' ? `fail: ${r.failures?.map((f) => f.message).join(' | ')}` : r.verdict));

describe('client.*: the official clients, handed the answers the run already has', () => {
  test('the clean emulator passes every client check', async () => {
    const run = await runOn([]);
    expect(run.results.length).toBeGreaterThanOrEqual(3);
    expect(run.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.checkId}: ${r.reason}`)).toEqual([]);
  });

  test.each([
    ['stream-no-role', 'client.openai.stream', /^fail: breaks openai@6\.\d+\.\d+: it throws on a stream the harness read to its end — Error: missing role for choice 0$/],
    ['stream-no-choice-index', 'client.openai.stream', /^fail: breaks openai@6\.\d+\.\d+: it throws on a stream the harness read to its end — Error: stream ended without producing a ChatCompletionMessage with role=assistant$/],
    ['stream-tool-call-no-index', 'client.openai.stream-tool-calls', /^fail: breaks openai@6\.\d+\.\d+: the client gives tool calls \[\] where the answer says \[\["call_\w+","get_\w+","\{.*\}"\]\]$/],
    ['error-envelope-flat', 'client.openai.error', /^fail: breaks openai@6\.\d+\.\d+: the service's message "`messages` must be a non-empty array" is lost — the client says "400 status code \(no body\)"$/],
    ['completion-text-content-type', 'client.openai.chat', /^fail: breaks openai@6\.\d+\.\d+: it hands back the answer as a string, not a completion: the answer is served as "text\/plain; charset=utf-8"$/],
    ['messages-text-content-type', 'client.anthropic.messages', /^fail: breaks anthropic@1\.\d+\.\d+: it hands back the answer as a string, not a message: the answer is served as "text\/plain; charset=utf-8"$/],
    ['messages-stream-out-of-order', 'client.anthropic.stream', /^fail: breaks anthropic@1\.\d+\.\d+: the client gives stop_reason null where the answer says "end_turn"$/],
    ['messages-error-no-body', 'client.anthropic.error', /^fail: breaks anthropic@1\.\d+\.\d+: the refusal carries no message for the client to pass on — the client says "400 status code \(no body\)"$/],
  ] as [FaultId, string, RegExp][])('%s breaks the client: %s fails with the client\'s own words', async (fault, id, message) => {
    const run = await runOn([fault]);
    expect(said(run.results, id)).toEqual([expect.stringMatching(message)]);
  });

  test('a client failure carries a TypeScript reproducer: the same request through that client, the key read from the run\'s variable', async () => {
    const run = await runOn(['error-envelope-flat'], { only: ['client.openai.error'] });
    const failure = run.results.find((r) => r.model === 'svc-v4-flash')!.failures![0]!;
    const code = failure.reproducer?.client ?? '';
    expect(code).toMatch(/^\/\/ openai@6\.\d+\.\d+: npm install openai@6\.\d+\.\d+/);
    expect(code).toContain(`new OpenAI({ baseURL: ${JSON.stringify(failure.evidence!.request.url.replace(/\/chat\/completions$/, ''))}, apiKey: process.env.SVC_API_KEY, maxRetries: 0 })`);
    expect(code).toContain('"messages": []');
    expect(code).toContain('await client.chat.completions.create(params)');
    expect(failure.reproducer?.curl).toMatch(/^curl /);
  });

  test('a stream without `data: [DONE]` breaks no client check: the client copes, so the check passes', async () => {
    const run = await runOn(['stream-no-done'], { only: ['client.*', 'stream.events.done-last'] });
    expect(said(run.results, 'stream.events.done-last')).toEqual([expect.stringMatching(/^fail: /)]);
    expect(run.results.filter((r) => r.checkId.startsWith('client.')).map((r) => r.verdict)).toEqual(expect.arrayContaining(['pass']));
    expect(run.results.filter((r) => r.checkId.startsWith('client.') && r.verdict !== 'pass')).toEqual([]);
  });

  test('no request of their own: a full run sends as many requests with the client checks as without them', async () => {
    const [withClients, without] = await Promise.all([runOn([], {}), runOn([], { skip: ['client.*'] })]);
    expect(withClients.results.length).toBeGreaterThan(without.results.length);
    expect(withClients.transport?.requests).toBe(without.transport?.requests);
  });

  test('a messages-format stream saying "stop" where the format says "end_turn" breaks no client: the anthropic client passes the word on as sent', async () => {
    const run = await runOn(['messages-stop-reason-chat-style'], { only: ['client.anthropic.stream', 'messages.stream.events-in-format-order'] });
    expect(said(run.results, 'messages.stream.events-in-format-order')).toEqual([expect.stringMatching(/^fail: /)]);
    expect(said(run.results, 'client.anthropic.stream')).toEqual(['pass']);
  });

  test('the anthropic client keeps the service\'s message in the error body it exposes: a refusal in the format\'s envelope passes, and so does a flat one', async () => {
    for (const faults of [[], ['messages-error-flat']] as FaultId[][]) expect(said((await runOn(faults)).results, 'client.anthropic.error'), faults.join()).toEqual(['pass']);
  });

  test.each([
    ['openai', () => openaiClientChecks(spec, () => Promise.reject(new Error("Cannot find package 'openai'"))), /the openai client is not installed \(Cannot find package 'openai'\): .*npm install openai/],
    ['@anthropic-ai/sdk', () => anthropicClientChecks(spec, () => Promise.reject(new Error("Cannot find package '@anthropic-ai/sdk'"))), /the @anthropic-ai\/sdk client is not installed .*npm install @anthropic-ai\/sdk/],
  ] as const)('a missing %s is a skip that says how to add it, never a crash', async (_name, make, why) => {
    const checks = make();
    const ctx = { model: 'svc-v4-flash', targetModel: 'svc-v4-flash', samples: new Map() } as unknown as CheckContext;
    for (const check of checks) {
      const result = await executeCheck(check, ctx, UNTRACKED);
      expect({ verdict: result.verdict, kind: result.skipKind }).toEqual({ verdict: 'skip', kind: 'out-of-scope' });
      expect(result.reason).toMatch(why);
    }
  });
});
