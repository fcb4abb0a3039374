import { createRequire } from 'node:module';
import type { Spec } from '#harness/spec/model.ts';
import type { Check } from '../define.ts';
import { get } from '../support/body.ts';
import type { SharedAnswer } from '../support/samples.ts';
import { CAPABILITIES } from './capabilities.ts';
import { caught, clientAdapter, clientCheck, paramsOf, REPLAYED_CLIENT, toolCallsOf, type ClientCheckDef } from './clientCheck.ts';

/** The AI SDK as people point it at an OpenAI-compatible endpoint: `ai` and its openai-compatible provider. */
type AiSdk = { ai: typeof import('ai'); compatible: typeof import('@ai-sdk/openai-compatible') };
type Client = ReturnType<AiSdk['compatible']['createOpenAICompatible']>;

// `ai` exports no VERSION: the version is its package.json's, which the package exports.
const importAiSdk = async (): Promise<[AiSdk, { VERSION: string }]> => {
  const [ai, compatible] = await Promise.all([import('ai'), import('@ai-sdk/openai-compatible')]);
  return [{ ai, compatible }, { VERSION: (createRequire(import.meta.url)('ai/package.json') as { version: string }).version }];
};

/** Both packages: the install hint names the provider too, which `ai` does not bring. */
const PACKAGES = 'ai @ai-sdk/openai-compatible';

/** The AI SDK, pinned in package.json's optionalDependencies. */
const adapter = clientAdapter<AiSdk, 'ai-sdk'>('ai-sdk', PACKAGES, importAiSdk, 'ai');
export const AI_SDK_CLIENT = adapter.client;

/**
 * What the AI SDK (`generateText`, `streamText` over `@ai-sdk/openai-compatible`) makes of the
 * answers the run already has: the ones the `openai` checks hand their client (clientCheck.ts).
 * Handed a model object, never a model id string: a string would go to the Vercel AI Gateway.
 */
export function aiSdkClientChecks(_spec: Spec, load: typeof importAiSdk = importAiSdk): Check[] {
  const common = {
    client: 'ai-sdk',
    load: adapter.loadFor(load),
    make: (module: AiSdk, fetch: typeof globalThis.fetch): Client =>
      module.compatible.createOpenAICompatible({ name: 'replayed', baseURL: REPLAYED_CLIENT.baseURL, apiKey: REPLAYED_CLIENT.apiKey, fetch }),
    script: {
      // One package names the version installed (ai's); the provider is the major that goes with it.
      package: '@ai-sdk/openai-compatible@2 ai',
      route: '/chat/completions',
      setup: (baseURL: string, key: string) => `import { generateText, streamText } from 'ai';\nimport { createOpenAICompatible } from '@ai-sdk/openai-compatible';\nconst client = createOpenAICompatible({ name: 'svc', baseURL: ${JSON.stringify(baseURL)}, apiKey: process.env.${key} });`,
    },
  } satisfies Partial<ClientCheckDef<AiSdk, Client>>;
  return [
    clientCheck({
      ...common,
      ...CAPABILITIES.chat,
      call: `generateText(${CALL})`,
      title: 'the AI SDK reads a completion as the harness does: text, finish reason, tool calls and usage',
      async judge(seen, use) {
        const got = await caught(() => use.module.ai.generateText(callOf(use.clientFor(seen), seen)));
        if ('threw' in got) return use.threw(seen, got.threw);
        const message = get(seen.body, 'choices', 0, 'message');
        // Its usage total is its own sum of the two counts, so the counts are what it reads.
        return use.differences(seen, [
          ['content', got.value.text, get(message, 'content') ?? ''],
          ['finish_reason', wireFinish(got.value.finishReason), get(seen.body, 'choices', 0, 'finish_reason')],
          ['tool_calls', got.value.toolCalls.map((c) => [c.toolCallId, c.toolName]), toolCallsOf(message)],
          ['usage.prompt_tokens', got.value.usage.inputTokens, get(seen.body, 'usage', 'prompt_tokens')],
          ['usage.completion_tokens', got.value.usage.outputTokens, get(seen.body, 'usage', 'completion_tokens')],
        ]);
      },
    }),
    clientCheck({
      ...common,
      ...CAPABILITIES.stream,
      call: `streamText(${CALL}).text`,
      title: 'the AI SDK\'s streamText reads a streamed completion to its end as the harness does: text and finish reason',
      async judge(seen, use) {
        const { stream } = seen;
        // streamText never throws what goes wrong in a stream: it hands it on as an error part (and to
        // onError, whose default writes it to stderr). The first such error is the client breaking.
        const errors: unknown[] = [];
        const got = await caught(async () => {
          const result = use.module.ai.streamText({ ...callOf(use.clientFor(seen), seen), onError: ({ error }) => void errors.push(error) });
          let text = '';
          let finish: unknown;
          for await (const part of result.fullStream) {
            if (part.type === 'text-delta') text += part.text;
            else if (part.type === 'finish') finish = part.finishReason;
            else if (part.type === 'error') errors.push(part.error);
          }
          return { text, finish };
        });
        if ('threw' in got) return use.threw(seen, got.threw);
        if (errors.length > 0) return use.breaks(`it ends a stream the harness read to its end with an error`, seen, `${named(errors[0])}`);
        return use.differences(seen, [
          ['content', got.value.text, stream.message.content.text],
          ['finish_reason', wireFinish(got.value.finish), stream.message.finishReason],
        ]);
      },
    }),
    clientCheck({
      ...common,
      ...CAPABILITIES.error,
      // No `call`: the AI SDK sends no empty prompt, so no request of its own meets this refusal.
      title: 'the AI SDK raises its APICallError for a refusal, carrying the status and the service\'s message',
      async judge(seen, use) {
        const { APICallError } = use.module.ai;
        // The AI SDK refuses an empty prompt itself, before any request: it is asked a one-message
        // prompt instead, and the replay answers it with the endpoint's refusal all the same.
        const call = () => use.module.ai.generateText({ ...callOf(use.clientFor(seen), seen), messages: [{ role: 'user', content: 'Say hello in five words.' }] })
          .catch((error: unknown) => { throw APICallError.isInstance(error) ? new StatusError(error) : error; });
        return use.refusal(seen, call, StatusError);
      },
    }),
  ];
}

/** The call a reproducer makes, as callOf makes it (its errors reach stderr through the SDK's default onError). */
const CALL = '{ model: client.chatModel(params.model), messages: params.messages, maxOutputTokens: params.max_tokens, maxRetries: 0 }';

/** The harness's request as the AI SDK is asked it: the request's model, messages and output cap; no retries (an answer is judged as it came). */
function callOf(client: Client, seen: SharedAnswer) {
  const body = paramsOf(seen) as { model?: string; messages?: never[]; max_tokens?: number };
  return { model: client.chatModel(body.model ?? ''), messages: body.messages ?? [], maxOutputTokens: body.max_tokens, maxRetries: REPLAYED_CLIENT.maxRetries };
}

/**
 * The AI SDK's finish reasons as the wire says them: it renames them (`tool_calls` is its
 * `tool-calls`), so the meaning is compared, not the spelling. A word of its own (`other`, for a
 * reason it does not know; `error`) stays as it is: no wire word says it, so it differs.
 */
const WIRE_FINISH: Record<string, string> = { stop: 'stop', length: 'length', 'content-filter': 'content_filter', 'tool-calls': 'tool_calls' };
const wireFinish = (reason: unknown): unknown => (typeof reason === 'string' ? (WIRE_FINISH[reason] ?? reason) : reason);


/** An error as a one-line message shows it: the AI SDK's own messages run over several lines. */
const named = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).replace(/\s*\n\s*/g, ' ');

/**
 * The AI SDK's APICallError as ClientUse.refusal reads a client's typed error: its `statusCode`
 * as `status`, and the error data it parsed from the body as `error` (its raw body is no reading).
 */
class StatusError extends Error {
  constructor(cause: { name: string; message: string; statusCode?: number; data?: unknown }, readonly status = cause.statusCode, readonly error = cause.data) {
    super(cause.message, { cause });
    this.name = cause.name;
  }
}
