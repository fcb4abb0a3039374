import type { SseEvent } from '#harness/core/sseFold.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { Check } from '../define.ts';
import { get } from '../support/body.ts';
import { named } from '../messages/stream.ts';
import { shown } from '../support/outcome.ts';
import { CAPABILITIES } from './capabilities.ts';
import { caught, clientAdapter, clientCheck, defaultExportClient, requiredClient, paramsOf, type ClientCheckDef } from './clientCheck.ts';

type AnthropicModule = typeof import('@anthropic-ai/sdk');
type Client = InstanceType<AnthropicModule['default']>;

const importAnthropic = (): Promise<[AnthropicModule, { VERSION: string }]> => requiredClient<AnthropicModule>('@anthropic-ai/sdk');

const adapter = clientAdapter<AnthropicModule, 'anthropic'>('anthropic', '@anthropic-ai/sdk', importAnthropic);

/** The official messages-format client, pinned in package.json's optionalDependencies. */
export const ANTHROPIC_CLIENT = adapter.client;

/**
 * What the official `@anthropic-ai/sdk` client makes of the messages-format answers the run already
 * has (the reply, and the refusal of an unknown model), handed to it as the `openai` checks hand
 * theirs (clientCheck.ts).
 */
export function anthropicClientChecks(_spec: Spec, load: typeof importAnthropic = importAnthropic): Check[] {
  const common = {
    client: 'anthropic',
    load: adapter.loadFor(load),
    ...defaultExportClient<AnthropicModule, Client>('@anthropic-ai/sdk', 'Anthropic', '/v1/messages'),
  } satisfies Partial<ClientCheckDef<AnthropicModule, Client>>;
  return [
    clientCheck({
      ...common,
      ...CAPABILITIES.messages,
      call: 'client.messages.create(params)',
      title: 'the official anthropic client reads a messages-format reply as the harness does: text, stop reason and usage',
      async judge(seen, use) {
        const got = await caught(() => use.clientFor(seen).messages.create(paramsOf(seen) as never));
        if ('threw' in got) return use.threw(seen, got.threw);
        if (typeof got.value !== 'object' || got.value === null) return use.breaks(`it hands back the answer as ${typeof got.value === 'string' ? 'a string' : shown(got.value)}, not a message: the answer is served as ${shown(seen.res.headers['content-type'])}`, seen);
        return use.differences(seen, [
          ['content', get(got.value, 'content'), get(seen.body, 'content')],
          ['stop_reason', get(got.value, 'stop_reason'), get(seen.body, 'stop_reason')],
          ['usage.output_tokens', get(got.value, 'usage', 'output_tokens'), get(seen.body, 'usage', 'output_tokens')],
        ]);
      },
    }),
    clientCheck({
      ...common,
      ...CAPABILITIES['messages-stream'],
      call: 'client.messages.stream(params).finalMessage()',
      title: 'the official anthropic client\'s stream helper assembles a messages-format stream as the harness does: text, stop reason and usage',
      async judge(seen, use) {
        const got = await caught(() => use.clientFor(seen).messages.stream(paramsOf(seen) as never).finalMessage());
        if ('threw' in got) return use.threw(seen, got.threw);
        const read = streamRead(seen.events);
        return use.differences(seen, [
          ['text', textOf(get(got.value, 'content')), read.text],
          ['stop_reason', get(got.value, 'stop_reason'), read.stopReason],
          ['usage.output_tokens', get(got.value, 'usage', 'output_tokens'), read.outputTokens],
        ]);
      },
    }),
    clientCheck({
      ...common,
      ...CAPABILITIES['messages-error'],
      call: 'client.messages.create(params)',
      title: 'the official anthropic client raises its typed error for a refusal, carrying the status and the service\'s message',
      async judge(seen, use) {
        return use.refusal(seen, () => use.clientFor(seen).messages.create(paramsOf(seen) as never), use.module.default.APIError);
      },
    }),
  ];
}

/** What a messages-format stream says, as the harness reads its events: the text deltas, and message_delta's stop reason and output tokens. */
function streamRead(events: readonly SseEvent[]): { text: string; stopReason: unknown; outputTokens: unknown } {
  let text = '';
  let stopReason: unknown;
  let outputTokens: unknown;
  for (const e of events) {
    const { data } = named(e);
    if (get(data, 'type') === 'content_block_delta' && get(data, 'delta', 'type') === 'text_delta') text += String(get(data, 'delta', 'text') ?? '');
    if (get(data, 'type') === 'message_delta') {
      stopReason = get(data, 'delta', 'stop_reason') ?? stopReason;
      outputTokens = get(data, 'usage', 'output_tokens') ?? outputTokens;
    }
  }
  return { text, stopReason, outputTokens };
}

/** The text blocks of a message's content, joined: what the stream's text deltas add up to. */
const textOf = (content: unknown): string => (Array.isArray(content) ? content.filter((b) => get(b, 'type') === 'text').map((b) => String(get(b, 'text') ?? '')).join('') : '');
