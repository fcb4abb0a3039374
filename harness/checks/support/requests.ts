import { MESSAGES_PATH } from '#harness/core/messagesPaths.ts';
import type { CheckContext, CheckRequest } from '../context.ts';

/** The tools a request offers when a check needs some: a call of `get_weather` needs a city and a unit. */
export const SAMPLE_TOOLS = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city', 'unit'] } } },
  { type: 'function', function: { name: 'get_time', description: 'Local time in a time zone', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } } },
];

/**
 * The smallest valid chat request for the model under test, capped in output so a live run stays
 * cheap. Checks add or override fields.
 */
export function chatBody(ctx: CheckContext, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: ctx.targetModel, messages: [{ role: 'user', content: 'Say hello in five words.' }], max_tokens: 32, ...extra };
}

export function chat(ctx: CheckContext, extra: Record<string, unknown> = {}, base = 'base_url'): CheckRequest {
  return { base, method: 'POST', path: '/chat/completions', body: chatBody(ctx, extra) };
}

/**
 * Output room for an answer whose content a check judges (a tool call, JSON, a reply to a prompt):
 * enough that a short answer is not cut off by `max_tokens` (the default request asks for 32, to
 * keep a live run cheap; a real model's tool call, its name, JSON arguments and the template's own
 * markers, runs past that), few enough that a model writing on and on costs little.
 */
export const ROOM_TOKENS = 256;

/**
 * A request that makes a tool call: the sample tools, one call required. Its own prompt, so that an
 * answer recorded for another request (a capture whose request offered other tools) never stands in.
 */
export function toolCallRequest(ctx: CheckContext, stream: boolean): CheckRequest {
  return chat(ctx, { messages: [{ role: 'user', content: 'What is the weather in Paris? Call one of the functions.' }], tools: SAMPLE_TOOLS, tool_choice: 'required', max_tokens: ROOM_TOKENS, ...(stream ? { stream: true } : {}) });
}

/** A prompt of about `words` words, for caching (static content first, as the description advises). */
export function longPrompt(words: number, salt = ''): string {
  const base = 'The quick brown fox jumps over the lazy dog while the band plays a slow waltz near the river bank';
  const out: string[] = [];
  const w = base.split(' ');
  for (let i = 0; i < words; i++) out.push(w[i % w.length]!);
  return `${out.join(' ')}${salt}`;
}

/** The smallest fill-in-the-middle request for the model under test, on the beta base. */
export function fimBody(ctx: CheckContext, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: ctx.targetModel, prompt: 'def add(a, b):\n', suffix: '\n    return c\n', max_tokens: 32, ...extra };
}

export function fim(ctx: CheckContext, extra: Record<string, unknown> = {}): CheckRequest {
  return { base: 'beta', method: 'POST', path: '/completions', body: fimBody(ctx, extra) };
}

/** The smallest messages-format request for the model under test, at the messages base and path. */
export function messagesRequest(ctx: CheckContext, extra: Record<string, unknown> = {}): CheckRequest {
  return { base: 'messages_base_url', method: 'POST', path: MESSAGES_PATH, body: { model: ctx.targetModel, max_tokens: 32, messages: [{ role: 'user', content: 'Say hello in five words.' }], ...extra } };
}
