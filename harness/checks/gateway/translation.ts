import { deepEqual } from '#harness/core/deepEqual.ts';
import { chatToolChoiceOf } from '#harness/core/messagesToolChoice.ts';
import { isRecord } from '#harness/core/isRecord.ts';

/**
 * The one table between the messages format a gateway is asked in and the chat-completions format
 * it asks its upstream in (issue 49, item 3): which request field becomes which, which finish reason
 * becomes which stop reason, which usage numbers answer which, and where an error's words go. The
 * gateway.messages.* checks read it and nothing else of either format; what each entry is held to,
 * and why, is the check's (its strength from the description, checks/gateway/index.ts).
 *
 * A gateway that passes the messages format on as it came (its upstream asked at the messages path)
 * is judged by the same entries read as the identity: each field, reason and number as it was.
 */

type Json = Record<string, unknown>;

/** How a messages-format request field's value is written in the chat format. */
export interface RequestField {
  /** The messages-format field the client sends. */
  messages: string;
  /** The chat-completions field the upstream must get it as. */
  chat: string;
  /** The value the upstream must get, from the client's; undefined: the value as sent. */
  translate?: (value: unknown) => unknown;
  /** Whether what the upstream got is the translation (default: equal to it). */
  same?: (expected: unknown, got: unknown) => boolean;
}

/** `tool_choice` of the messages format as the chat value it means; a value it does not know, as it is. */
const chatToolChoice = (value: unknown): unknown => chatToolChoiceOf(value) ?? value;

/** `tools: [{name, description, input_schema}]` as chat tool definitions. */
function chatTools(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((t) => (isRecord(t) ? { type: 'function', function: { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.input_schema } } : t));
}

/** The chat tools got hold every name, description and schema sent (a gateway may add `strict` or the like). */
function sameTools(expected: unknown, got: unknown): boolean {
  if (!Array.isArray(expected) || !Array.isArray(got) || expected.length !== got.length) return false;
  return expected.every((e, i) => {
    const g = got[i] as { type?: unknown; function?: Json } | undefined;
    const f = (e as { function: Json }).function;
    return isRecord(g) && g.type === 'function' && isRecord(g.function) && Object.entries(f).every(([k, v]) => deepEqual(g.function![k], v));
  });
}

/**
 * The request fields carried across, in the order the checks report them. `thinking` keeps its
 * `type` (the service's `thinking` has no budget: `thinking.budget` is shown only as `high`, so a
 * `budget_tokens` has no place to go); the upstream must get the same `thinking.type`.
 */
export const REQUEST_FIELDS: readonly RequestField[] = [
  { messages: 'max_tokens', chat: 'max_tokens' },
  { messages: 'stop_sequences', chat: 'stop' },
  { messages: 'temperature', chat: 'temperature' },
  { messages: 'top_p', chat: 'top_p' },
  { messages: 'thinking', chat: 'thinking', translate: (v) => (isRecord(v) ? { type: v.type } : v), same: (e, g) => isRecord(e) && isRecord(g) && g.type === e.type },
  { messages: 'tools', chat: 'tools', translate: chatTools, same: sameTools },
  { messages: 'tool_choice', chat: 'tool_choice', translate: chatToolChoice },
];

/**
 * A chat `finish_reason` and the stop reasons of the messages format it may become. `stop` says
 * neither whether a stop sequence ended the answer nor which: `end_turn`, or `stop_sequence` naming
 * one of the sequences the client sent, are each a faithful reading. `content_filter` is kept apart:
 * no stop reason another finish reason becomes (`refusal` is the format's word for it).
 */
export const STOP_REASONS: Readonly<Record<string, { stopReasons: readonly string[]; namesSequence?: true }>> = {
  stop: { stopReasons: ['end_turn', 'stop_sequence'] },
  length: { stopReasons: ['max_tokens'] },
  tool_calls: { stopReasons: ['tool_use'] },
  content_filter: { stopReasons: ['refusal'] },
};

/** The stop reason a `stop_sequence` must come with: the sequence that ended the answer, one of those sent. */
export const SEQUENCE_STOP = 'stop_sequence';

/**
 * The usage the client is told, against the upstream's: each entry the sum of the messages-format
 * numbers that must equal the sum of the chat numbers (absent ones count 0). The input side is split
 * in the messages format (`input_tokens` leaves out what the cache read), so only its sum is the
 * upstream's `prompt_tokens`; the cache reads are the upstream's hits, reported whenever there were any.
 */
export interface UsageEntry {
  name: string;
  messages: readonly string[];
  chat: readonly string[];
  /** In a stream: where the numbers are told (`message_start` carries the input side, `message_delta` the final counts). */
  streamed: { start: boolean; delta: boolean };
}

export const USAGE: readonly UsageEntry[] = [
  { name: 'input', messages: ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'], chat: ['prompt_tokens'], streamed: { start: true, delta: true } },
  { name: 'cache read', messages: ['cache_read_input_tokens'], chat: ['prompt_cache_hit_tokens'], streamed: { start: true, delta: true } },
  { name: 'output', messages: ['output_tokens'], chat: ['completion_tokens'], streamed: { start: false, delta: true } },
];

/** Where an error's words are in each format's envelope: the chat `{error: {type, message, code}}`, the messages `{type: "error", error: {type, message}}` (no code). */
export const ERROR_FIELDS: readonly { messages: string; chat: string }[] = [
  { messages: 'type', chat: 'type' },
  { messages: 'message', chat: 'message' },
];

/** Which format the upstream was asked in, by the path the gateway asked at. */
export function upstreamFormat(path: string): 'chat' | 'messages' | undefined {
  const bare = path.split('?')[0]!.replace(/\/+$/, '');
  if (bare.endsWith('/chat/completions')) return 'chat';
  if (bare.endsWith('/messages')) return 'messages';
  return undefined;
}

/** The table read as the identity, for a gateway that passed the messages format on. */
export const IDENTITY_REQUEST_FIELDS: readonly RequestField[] = REQUEST_FIELDS.map((f) => ({ messages: f.messages, chat: f.messages }));
