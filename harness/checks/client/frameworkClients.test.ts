import { afterEach, describe, expect, test, vi } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { defaultModels } from '#harness/checks/index.ts';
import type { FaultId } from '#harness/emulator/index.ts';
import { executeCheck, UNTRACKED } from '#harness/runner/execute.ts';
import { runChecks } from '#harness/runner/runChecks.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import type { CheckContext } from '../context.ts';
import { aiSdkClientChecks } from './aiSdk.ts';
import { langchainClientChecks } from './langchain.ts';

const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');
const FRAMEWORKS = ['client.ai-sdk.*', 'client.langchain.*'];

async function runOn(faults: FaultId[], only: string[] = FRAMEWORKS) {
  const target = await emulatorTarget(spec, { now: NOW, faults });
  try {
    return await runChecks(emulatorRunConfig(target, defaultModels(spec), NOW, { only }));
  } finally {
    await target.close();
  }
}

/** What each check said on the default model: its verdict, and a failure's messages. */
const said = (results: readonly CheckResult[]) =>
  Object.fromEntries(results.filter((r) => r.model === 'svc-v4-flash').map((r) => [r.checkId, r.verdict === 'fail' ? `fail: ${r.failures?.map((f) => f.message).join(' | ')}` : r.verdict]));

const AI_SDK = String.raw`breaks ai-sdk@6\.\d+\.\d+: `;
const LANGCHAIN = String.raw`breaks langchain@1\.\d+\.\d+: `;

describe('client.ai-sdk.* and client.langchain.*: the AI SDK and LangChain, handed the answers the run already has', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  test('the clean emulator passes every check of both', async () => {
    const run = await runOn([]);
    expect(Object.keys(said(run.results)).sort()).toEqual(['chat', 'error', 'stream'].flatMap((c) => [`client.ai-sdk.${c}`, `client.langchain.${c}`]).sort());
    expect(run.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.checkId}: ${r.reason}`)).toEqual([]);
  });

  test.each([
    ['completion-created-as-string', 'client.ai-sdk.chat', `it throws on a completion the endpoint answered 200 — AI_APICallError: Invalid JSON response$`],
    ['completion-bad-finish-reason', 'client.ai-sdk.chat', `the client gives finish_reason "other" where the answer says "done"$`],
    ['stream-no-final-chunk', 'client.ai-sdk.stream', `it ends a stream the harness read to its end with an error — AI_InvalidResponseDataError: Response stream ended without a finish reason\\.$`],
    ['stream-malformed-event', 'client.ai-sdk.stream', `it ends a stream the harness read to its end with an error — AI_JSONParseError: JSON parsing failed: Text: .* Error message: Unterminated string in JSON`],
    ['stream-data-after-done', 'client.ai-sdk.stream', `the client gives content ".+late" where the answer says ".+\\."$`],
    // What the AI SDK says when it cannot read the body: the status text (the replay's is the standard one).
    ['error-envelope-flat', 'client.ai-sdk.error', `the service's message "\`messages\` must be a non-empty array" is lost — the client says "Bad Request"$`],
    ['completion-text-content-type', 'client.langchain.chat', `it throws on a completion the endpoint answered 200 — TypeError: Cannot read properties of undefined \\(reading 'message'\\)$`],
    ['message-wrong-role', 'client.langchain.chat', `the client gives usage.total_tokens absent where the answer says \\d+$`],
    ['stream-finish-every-chunk', 'client.langchain.stream', `the client gives finish_reason "(stop){2,}" where the answer says "stop"$`],
    ['stream-malformed-event', 'client.langchain.stream', `it throws on a stream the harness read to its end — SyntaxError: Unterminated string in JSON`],
    ['error-envelope-flat', 'client.langchain.error', `the service's message "\`messages\` must be a non-empty array" is lost — the client says "400 status code \\(no body\\)"$`],
  ] as [FaultId, string, string][])('%s breaks the client: %s fails with the client\'s own words', async (fault, id, words) => {
    const run = await runOn([fault], [id]);
    expect(said(run.results)[id]).toMatch(new RegExp(`^fail: ${id.startsWith('client.ai-sdk.') ? AI_SDK : LANGCHAIN}${words}`));
  });

  test('a failure carries a TypeScript reproducer through that client; the AI SDK\'s error check none, as the AI SDK sends no empty prompt', async () => {
    const run = await runOn(['completion-created-as-string', 'stream-finish-every-chunk', 'error-envelope-flat'], ['client.ai-sdk.chat', 'client.ai-sdk.error', 'client.langchain.stream']);
    const failureOf = (id: string) => run.results.find((r) => r.checkId === id && r.model === 'svc-v4-flash')?.failures?.[0];
    const reproducer = (id: string) => failureOf(id)?.reproducer;
    const base = JSON.stringify(failureOf('client.ai-sdk.chat')?.evidence?.request.url.replace(/\/chat\/completions$/, ''));
    expect(reproducer('client.ai-sdk.chat')?.client).toMatch(/^\/\/ ai-sdk@6\.\d+\.\d+: npm install @ai-sdk\/openai-compatible@2 ai@6\.\d+\.\d+, /);
    expect(reproducer('client.ai-sdk.chat')?.client).toContain(`createOpenAICompatible({ name: 'svc', baseURL: ${base}, apiKey: process.env.SVC_API_KEY })`);
    expect(reproducer('client.ai-sdk.chat')?.client).toContain('await generateText({ model: client.chatModel(params.model), messages: params.messages');
    expect(reproducer('client.langchain.stream')?.client).toContain(`configuration: { baseURL: ${base} }`);
    expect(reproducer('client.langchain.stream')?.client).toContain('await client(params).stream(params.messages)');
    expect(reproducer('client.ai-sdk.error')).toEqual({ curl: expect.stringMatching(/^curl /) });
  });

  test('faults they cope with leave their checks passing: the stream faults that break the official client\'s helper, and each other\'s', async () => {
    for (const fault of ['stream-no-role', 'stream-no-choice-index', 'stream-no-done'] as FaultId[]) {
      const run = await runOn([fault], [...FRAMEWORKS, 'client.openai.stream', 'stream.events.done-last']);
      const verdicts = said(run.results);
      // The fault is real: the official client or the harness's own check of the stream fails on it.
      expect([verdicts['client.openai.stream'], verdicts['stream.events.done-last']], fault).toContainEqual(expect.stringMatching(/^fail: /));
      expect([verdicts['client.ai-sdk.stream'], verdicts['client.langchain.stream']], fault).toEqual(['pass', 'pass']);
    }
    // A completion served as text/plain: the AI SDK parses it whatever its media type says, LangChain does not.
    expect(said((await runOn(['completion-text-content-type'])).results)).toMatchObject({ 'client.ai-sdk.chat': 'pass', 'client.langchain.chat': expect.stringMatching(/^fail: /) });
    // `created` as a date string: LangChain does not read it, the AI SDK's schema refuses it.
    expect(said((await runOn(['completion-created-as-string'])).results)).toMatchObject({ 'client.langchain.chat': 'pass', 'client.ai-sdk.chat': expect.stringMatching(/^fail: /) });
  });

  test('no request of their own: with LangSmith tracing switched on in the environment, nothing leaves through fetch', async () => {
    for (const name of ['LANGSMITH_TRACING', 'LANGCHAIN_TRACING_V2', 'LANGCHAIN_TRACING']) vi.stubEnv(name, 'true');
    vi.stubEnv('LANGSMITH_API_KEY', 'lsv2-not-a-key');
    const fetched = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      throw new Error(`no request may leave a client check: ${String(input instanceof Request ? input.url : input)}`);
    });
    const run = await runOn(['stream-malformed-event', 'error-envelope-flat']);
    expect(run.results.length).toBeGreaterThanOrEqual(6);
    // The tracer sends in the background: give it the time it takes to try.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fetched.mock.calls.map(([input]) => String(input))).toEqual([]);
  });

  test.each([
    ['ai', () => aiSdkClientChecks(spec, () => Promise.reject(new Error("Cannot find package '@ai-sdk/openai-compatible'"))), /the ai @ai-sdk\/openai-compatible client is not installed \(Cannot find package '@ai-sdk\/openai-compatible'\): .*`npm install ai @ai-sdk\/openai-compatible` adds it/],
    ['@langchain/openai', () => langchainClientChecks(spec, () => Promise.reject(new Error("Cannot find package '@langchain/openai'"))), /the @langchain\/openai client is not installed \(Cannot find package '@langchain\/openai'\): .*`npm install @langchain\/openai` adds it/],
  ] as const)('a missing %s is a skip that says how to add it, never a crash', async (_name, make, why) => {
    const ctx = { model: 'svc-v4-flash', targetModel: 'svc-v4-flash', samples: new Map() } as unknown as CheckContext;
    for (const check of make()) {
      const result = await executeCheck(check, ctx, UNTRACKED);
      expect({ verdict: result.verdict, kind: result.skipKind }).toEqual({ verdict: 'skip', kind: 'out-of-scope' });
      expect(result.reason).toMatch(why);
    }
  });
});
