import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckRequest } from '../context.ts';
import { modelMax, UNKNOWN_MODEL } from '../support/build.ts';
import { messagesRequest, ROOM_TOKENS, SAMPLE_TOOLS } from '../support/requests.ts';
import type { Case } from './chatCases.ts';
import { STOP_REASONS } from './translation.ts';

/** The chat format's sample tools in the messages format's shape (`input_schema`). */
const TOOLS = SAMPLE_TOOLS.map((t) => ({ name: t.function.name, description: t.function.description, input_schema: t.function.parameters }));
const WEATHER = { role: 'user', content: 'What is the weather in Paris? Call one of the functions.' };
/** A stop sequence the answer never reaches: sent to see it carried. */
const UNREACHED_STOP = 'XYZZY-END';
/** A prompt the emulator (any model told to repeat) says back, with the stop sequence inside it. */
const STOP_WORD = 'HALT';

/** A messages-format request of one user turn. */
export const ask = (ctx: CheckContext, content: string, extra: Record<string, unknown> = {}): CheckRequest => messagesRequest(ctx, { messages: [{ role: 'user', content }], ...extra });

/** A numeric field of the chat request's table off its default, inside its bounds: the messages format names the same parameters. */
function offDefault(spec: Spec, field: string, fallback: number): number {
  const f = spec.objects.chat_completion_request?.fields[field] as { default?: unknown; maximum?: unknown } | undefined;
  const d = typeof f?.default === 'number' ? f.default : undefined;
  const v = d === undefined ? fallback : d / 2;
  return typeof f?.maximum === 'number' && v > f.maximum ? f.maximum / 2 : v;
}

const namedTool = (ctx: CheckContext): CheckRequest => messagesRequest(ctx, { messages: [WEATHER], tools: TOOLS, tool_choice: { type: 'tool', name: TOOLS[0]!.name }, max_tokens: ROOM_TOKENS });

/** The messages-format requests whose parameters must reach the upstream, by name. */
export function messagesParameterSets(spec: Spec, ctx: CheckContext): Case[] {
  return [
    { name: 'sampling', request: ask(ctx, 'Say hello in five words. (sampling)', { max_tokens: 24, stop_sequences: [UNREACHED_STOP], temperature: offDefault(spec, 'temperature', 0.5), top_p: offDefault(spec, 'top_p', 0.5) }) },
    // The format's convention asks for a budget below max_tokens; the service's `thinking` has none to carry it.
    { name: 'thinking', request: ask(ctx, 'Why is the sky blue? (thinking)', { thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 1280 }) },
    { name: 'a named tool', request: namedTool(ctx) },
    { name: 'any tool', request: messagesRequest(ctx, { messages: [{ ...WEATHER, content: `${WEATHER.content} (any)` }], tools: TOOLS, tool_choice: { type: 'any' }, max_tokens: ROOM_TOKENS }) },
  ];
}

/** The requests whose stop reason the check reads: each ends for one cause. */
export function stopSets(ctx: CheckContext): (Case & { expects: string })[] {
  const faults = ctx.upstream?.faults === true;
  return [
    { name: 'a stream', request: ask(ctx, 'Repeat: alpha beta gamma', { stream: true, max_tokens: 16 }), expects: 'stop' },
    { name: 'a stop sequence', request: ask(ctx, `Repeat: one two ${STOP_WORD} three four`, { stop_sequences: [STOP_WORD] }), expects: 'stop' },
    { name: 'max_tokens reached', request: ask(ctx, 'Repeat: one two three four five six seven eight nine ten eleven twelve', { max_tokens: 4 }), expects: 'length' },
    { name: 'a named tool', request: namedTool(ctx), expects: 'tool_calls' },
    ...(faults ? [{ name: 'content_filter', request: { ...ask(ctx, 'Say hello in five words. (content_filter)'), upstream: { kind: 'finish' as const, finishReason: 'content_filter', stopReason: STOP_REASONS.content_filter!.stopReasons[0]! } }, expects: 'content_filter' }] : []),
  ];
}

/**
 * Requests the service refuses, in the order the error checks take them: `max_tokens` one past the
 * model's maximum (the spec's: only the service knows it, so a gateway passes it on), then a model id
 * it does not have (which a gateway translating for one model may route to its own default).
 */
export function refusals(spec: Spec, ctx: CheckContext): Case[] {
  const max = modelMax(spec, ctx.model);
  return [
    ...(max ? [{ name: "max_tokens beyond the model's maximum", request: { ...ask(ctx, 'Say hello. (refused)', { max_tokens: max.reject }), final: true } }] : []),
    { name: 'an unknown model', request: { ...ask(ctx, 'Say hello. (unknown model)', { model: UNKNOWN_MODEL }), final: true } },
  ];
}
