import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { Spec } from '#harness/spec/model.ts';
import type { Check } from '../define.ts';
import { get } from '../support/body.ts';
import type { SharedAnswer } from '../support/samples.ts';
import { CAPABILITIES } from './capabilities.ts';
import { caught, clientAdapter, clientCheck, paramsOf, REPLAYED_CLIENT, toolCallsOf, type ClientCheckDef } from './clientCheck.ts';

/** LangChain's ChatOpenAI, the openai client it wraps (whose APIError it lets through), and LangChain's run context. */
type LangChain = { chat: typeof import('@langchain/openai'); openai: typeof import('openai'); context: typeof import('@langchain/core/singletons') };
type ChatOpenAI = InstanceType<LangChain['chat']['ChatOpenAI']>;
type Reply = Awaited<ReturnType<ChatOpenAI['invoke']>>;
/** ChatOpenAI as a user calls it on the request the harness sent, every call untraced. */
type Client = { invoke(seen: SharedAnswer): Promise<Reply>; stream(seen: SharedAnswer): Promise<Reply | undefined> };

const importLangChain = async (): Promise<[LangChain, { VERSION: string }]> => {
  const [chat, openai, context] = await Promise.all([import('@langchain/openai'), import('openai'), import('@langchain/core/singletons')]);
  return [{ chat, openai, context }, { VERSION: (createRequire(import.meta.url)('@langchain/openai/package.json') as { version: string }).version }];
};

/** LangChain's OpenAI chat model, pinned in package.json's optionalDependencies. */
const adapter = clientAdapter<LangChain, 'langchain'>('langchain', '@langchain/openai', importLangChain);
export const LANGCHAIN_CLIENT = adapter.client;

/**
 * What LangChain's `ChatOpenAI` makes of the answers the run already has: the ones the `openai`
 * checks hand their client (clientCheck.ts), through the openai client LangChain wraps.
 */
export function langchainClientChecks(_spec: Spec, load: typeof importLangChain = importLangChain): Check[] {
  const common = {
    client: 'langchain',
    load: adapter.loadFor(load),
    make: (module: LangChain, fetch: typeof globalThis.fetch): Client => {
      const model = (seen: SharedAnswer): ChatOpenAI => {
        const body = paramsOf(seen) as { model?: string; max_tokens?: number };
        // LangChain retries on its own as well as through the client: both off. Its verbose log is off
        // unless LANGCHAIN_VERBOSE says otherwise (no option outranks that variable).
        return new module.chat.ChatOpenAI({
          model: body.model, maxTokens: body.max_tokens, apiKey: REPLAYED_CLIENT.apiKey, maxRetries: 0, verbose: false,
          configuration: { baseURL: REPLAYED_CLIENT.baseURL, fetch, maxRetries: 0, logLevel: REPLAYED_CLIENT.logLevel },
        });
      };
      return {
        invoke: (seen) => untraced(module, () => model(seen).invoke(messagesOf(seen))),
        // The chunks `stream()` hands out, concatenated as its users do. They are read from the
        // generator `stream()` wraps: `stream()` runs it in an async context of its own, which drops
        // the one saying tracing is off (untraced, below), and would post the run to LangSmith.
        stream: (seen) => untraced(module, async () => {
          let whole: Reply | undefined;
          for await (const chunk of model(seen)._streamIterator(messagesOf(seen))) whole = whole === undefined ? chunk : whole.concat(chunk);
          return whole;
        }),
      };
    },
    script: {
      package: '@langchain/openai',
      route: '/chat/completions',
      setup: (baseURL: string, key: string) => `import { ChatOpenAI } from '@langchain/openai';\nconst client = (params) => new ChatOpenAI({ model: params.model, maxTokens: params.max_tokens, apiKey: process.env.${key}, maxRetries: 0, configuration: { baseURL: ${JSON.stringify(baseURL)} } });`,
    },
  } satisfies Partial<ClientCheckDef<LangChain, Client>>;
  return [
    clientCheck({
      ...common,
      ...CAPABILITIES.chat,
      call: 'client(params).invoke(params.messages)',
      title: 'LangChain\'s ChatOpenAI reads a completion as the harness does: text, finish reason, tool calls and usage',
      async judge(seen, use) {
        const got = await caught(() => use.clientFor(seen).invoke(seen));
        if ('threw' in got) return use.threw(seen, got.threw);
        const message = get(seen.body, 'choices', 0, 'message');
        // Its content is always a string: an answer with no text (null content) is its "".
        return use.differences(seen, [
          ['content', got.value.content, get(message, 'content') ?? ''],
          ['finish_reason', got.value.response_metadata['finish_reason'], get(seen.body, 'choices', 0, 'finish_reason')],
          ['tool_calls', (got.value.tool_calls ?? []).map((c) => [c.id, c.name]), toolCallsOf(message)],
          ['usage.total_tokens', got.value.usage_metadata?.total_tokens, get(seen.body, 'usage', 'total_tokens')],
        ]);
      },
    }),
    clientCheck({
      ...common,
      ...CAPABILITIES.stream,
      call: 'client(params).stream(params.messages).then(async (chunks) => { let whole; for await (const chunk of chunks) whole = whole ? whole.concat(chunk) : chunk; return whole; })',
      title: 'LangChain\'s ChatOpenAI.stream, its chunks concatenated, adds up to what the harness read from the stream',
      async judge(seen, use) {
        const { stream } = seen;
        const got = await caught(() => use.clientFor(seen).stream(seen));
        if ('threw' in got) return use.threw(seen, got.threw);
        return use.differences(seen, [
          ['content', got.value?.text ?? '', stream.message.content.text],
          ['finish_reason', got.value?.response_metadata['finish_reason'], stream.message.finishReason],
        ]);
      },
    }),
    clientCheck({
      ...common,
      ...CAPABILITIES.error,
      call: 'client(params).invoke(params.messages)',
      title: 'LangChain\'s ChatOpenAI raises the openai client\'s typed error for a refusal, carrying the status and the service\'s message',
      async judge(seen, use) {
        return use.refusal(seen, () => use.clientFor(seen).invoke(seen), use.module.openai.default.APIError);
      },
    }),
  ];
}

/** The request's messages, as a LangChain user passes them (`{ role, content }` objects). */
const messagesOf = (seen: SharedAnswer): never => ((paramsOf(seen) as { messages?: unknown[] }).messages ?? []) as never;


/**
 * A call with LangSmith tracing off. LangChain posts every run to LangSmith when LANGSMITH_TRACING
 * (or LANGCHAIN_TRACING_V2) is set in the environment, and no option of ChatOpenAI says otherwise;
 * what outranks the variable is the current run tree's `tracingEnabled` (LangSmith's conditional
 * tracing), read from LangChain's async context. That context is made as LangChain's own modules
 * make it on import (a no-op when one is set), so an answer replayed here is never sent anywhere.
 */
function untraced<T>(module: LangChain, call: () => Promise<T>): Promise<T> {
  const context = module.context.AsyncLocalStorageProviderSingleton;
  context.initializeGlobalInstance(new AsyncLocalStorage());
  return context.getInstance().run({ tracingEnabled: false }, call);
}
