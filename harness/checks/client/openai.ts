import type { Spec } from '#harness/spec/model.ts';
import type { Check } from '../define.ts';
import { get } from '../support/body.ts';
import { shown } from '../support/outcome.ts';
import type { SharedAnswer } from '../support/samples.ts';
import { CAPABILITIES } from './capabilities.ts';
import { caught, clientAdapter, clientCheck, defaultExportClient, requiredClient, paramsOf, type ClientCheckDef } from './clientCheck.ts';

type OpenAIModule = typeof import('openai');
type Client = InstanceType<OpenAIModule['default']>;

const importOpenai = (): Promise<[OpenAIModule, { VERSION: string }]> => requiredClient<OpenAIModule>('openai');

const adapter = clientAdapter<OpenAIModule, 'openai'>('openai', 'openai', importOpenai);

/** The official openai client, pinned in package.json's optionalDependencies. */
export const OPENAI_CLIENT = adapter.client;

/**
 * What the official `openai` client (Node) makes of the answers the run already has: the plain
 * completion, the stream and the refusal of an empty `messages`, each handed to the real client
 * (clientCheck.ts), and what it exposes compared with what the harness read from the same answer.
 */
export function openaiClientChecks(_spec: Spec, load: typeof importOpenai = importOpenai): Check[] {
  const common = {
    client: 'openai',
    load: adapter.loadFor(load),
    ...defaultExportClient<OpenAIModule, Client>('openai', 'OpenAI', '/chat/completions'),
  } satisfies Partial<ClientCheckDef<OpenAIModule, Client>>;
  return [
    clientCheck({
      ...common,
      ...CAPABILITIES.chat,
      call: 'client.chat.completions.create(params)',
      title: 'the official openai client reads a completion as the harness does: text, finish reason, tool calls and usage',
      async judge(seen, use) {
        const got = await caught(() => use.clientFor(seen).chat.completions.create(paramsOf(seen) as never));
        if ('threw' in got) return use.threw(seen, got.threw);
        if (typeof got.value === 'string') return use.breaks(`it hands back the answer as a string, not a completion: the answer is served as ${shown(seen.res.headers['content-type'])}`, seen);
        const message = get(seen.body, 'choices', 0, 'message');
        return use.differences(seen, [
          ['content', get(got.value, 'choices', 0, 'message', 'content'), get(message, 'content')],
          ['finish_reason', get(got.value, 'choices', 0, 'finish_reason'), get(seen.body, 'choices', 0, 'finish_reason')],
          ['tool_calls', get(got.value, 'choices', 0, 'message', 'tool_calls'), get(message, 'tool_calls')],
          ['usage.total_tokens', get(got.value, 'usage', 'total_tokens'), get(seen.body, 'usage', 'total_tokens')],
        ]);
      },
    }),
    clientCheck({
      ...common,
      ...CAPABILITIES.stream,
      call: 'client.chat.completions.stream(params).finalMessage()',
      title: 'the official openai client\'s stream helper assembles a streamed completion as the harness does',
      async judge(seen, use) {
        const { stream } = seen;
        const got = await caught(() => assembled(use.clientFor(seen), seen));
        if ('threw' in got) return use.threw(seen, got.threw);
        return use.differences(seen, [
          ['content', get(got.value.message, 'content') ?? '', stream.message.content.text],
          ['finish_reason', get(got.value.completion, 'choices', 0, 'finish_reason'), stream.message.finishReason],
        ]);
      },
    }),
    clientCheck({
      ...common,
      ...CAPABILITIES['stream-tool-calls'],
      call: 'client.chat.completions.stream(params).finalMessage()',
      title: 'the official openai client\'s stream helper assembles a streamed tool call as the harness does: id, function name and arguments',
      async judge(seen, use) {
        const { stream } = seen;
        const got = await caught(() => assembled(use.clientFor(seen), seen));
        if ('threw' in got) return use.threw(seen, got.threw);
        const calls = (get(got.value.message, 'tool_calls') as unknown[] | undefined) ?? [];
        return use.differences(seen, [
          ['tool calls', calls.map((c) => [get(c, 'id'), get(c, 'function', 'name'), get(c, 'function', 'arguments')]), stream.message.toolCalls.map((c) => [c.id, c.name.text, c.arguments.text])],
        ]);
      },
    }),
    clientCheck({
      ...common,
      ...CAPABILITIES.error,
      call: 'client.chat.completions.create(params)',
      title: 'the official openai client raises its typed error for a refusal, carrying the status and the service\'s message',
      async judge(seen, use) {
        return use.refusal(seen, () => use.clientFor(seen).chat.completions.create(paramsOf(seen) as never), use.module.default.APIError);
      },
    }),
  ];
}

/**
 * What the stream helper assembles, as its users read it: the assistant message (`finalMessage()`,
 * which throws where the stream adds up to none: "stream ended without producing a
 * ChatCompletionMessage with role=assistant"), and the completion it came in, for its finish reason.
 */
async function assembled(client: Client, seen: SharedAnswer): Promise<{ message: unknown; completion: unknown }> {
  const stream = contained(client.chat.completions.stream(paramsOf(seen) as never));
  const message = await stream.finalMessage();
  return { message, completion: await stream.finalChatCompletion() };
}

/**
 * The stream helper, with its end contained: where a stream adds up to no message, openai@6 throws
 * from its own end-of-stream step as well as from `finalChatCompletion()`, and that copy is a
 * rejection nobody can handle (it would end the harness, as it ends a user's process). The one
 * `finalChatCompletion()` gives is the verdict; the other is caught here, before the helper runs it.
 */
function contained<T extends object>(stream: T): T {
  const own = stream as unknown as { _emitFinal?: () => void };
  const emitFinal = own._emitFinal;
  if (typeof emitFinal === 'function') {
    own._emitFinal = function (this: unknown) {
      try {
        emitFinal.call(this);
      } catch {
        // finalChatCompletion() rejects with the same error: that is the one judged.
      }
    };
  }
  return stream;
}
