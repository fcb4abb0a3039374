import type { Kind } from './kinds.ts';
import { looksLikeSse } from './stream.ts';
import { isRecord } from '#harness/core/isRecord.ts';

/** Words that make a non-JSON body read as an error message (a plain-text error where JSON was due). */
const ERROR_WORDS = /\b(?:error|errors|failed|failure|invalid|denied|unauthori[sz]ed|forbidden|not found|too many requests|rate limit(?:ed)?|overloaded|unavailable|bad request|exception)\b/i;

/** Longer texts are documents, not error bodies, whatever words they use. */
const MAX_ERROR_TEXT = 4096;

/** Whether a text that is not JSON reads as an error message: short, and with an error word. */
export function looksLikeErrorText(text: string): boolean {
  return text.length <= MAX_ERROR_TEXT && ERROR_WORDS.test(text);
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The kind of one parsed JSON body, from its content; undefined when nothing tells. */
export function kindOfValue(value: unknown): Kind | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.object) {
    case 'chat.completion':
      return 'chat_completion';
    case 'chat.completion.chunk':
      return 'chat_completion_chunk';
    case 'text_completion':
      return 'fim_completion';
    case 'list':
      return 'model_list';
    default:
      break;
  }
  if ('balance_infos' in value) return 'balance';
  if (isRecord(value.error)) return 'error_envelope';
  if (value.type === 'message' && Array.isArray(value.content)) return 'messages_response';
  // No `object` field: the shape of the first choice still tells the three choice-bearing kinds apart.
  const first = Array.isArray(value.choices) ? (value.choices[0] as unknown) : undefined;
  if (isRecord(first)) {
    if (isRecord(first.message)) return 'chat_completion';
    if (isRecord(first.delta)) return 'chat_completion_chunk';
    if (typeof first.text === 'string') return 'fim_completion';
  }
  if (value.object === undefined && Array.isArray(value.data) && value.data.every((e) => isRecord(e) && typeof e.id === 'string')) {
    return 'model_list';
  }
  return undefined;
}

/**
 * The kind of a captured body, told from its content: `data:` lines make an SSE stream of chunks;
 * one chunk JSON per line is a stream stored without framing; otherwise the JSON body's `object`
 * value (`chat.completion`, `chat.completion.chunk`, `text_completion`, `list`) or its fields
 * (`balance_infos`, an `error` object, a `content` array beside `type: "message"`). A body that is not
 * JSON and reads as an error message is an error envelope (one that broke the JSON rule). Leading
 * blank lines are skipped. Undefined when nothing tells.
 */
export function detectKind(text: string): Kind | undefined {
  const body = text.trimStart();
  if (body === '') return undefined;
  if (looksLikeSse(body)) return 'chat_completion_chunk';
  const whole = parse(body);
  if (whole.ok) return kindOfValue(whole.value);
  const lines = body.split(/\r\n|\n|\r/).filter((l) => l.trim() !== '');
  const first = lines[0] === undefined ? undefined : parse(lines[0]);
  if (lines.length > 1 && first?.ok === true && kindOfValue(first.value) === 'chat_completion_chunk') return 'chat_completion_chunk';
  // Broken JSON (cut short, say) still names its object; that tells the kind it failed to be.
  const named = /"object"\s*:\s*"(chat\.completion|chat\.completion\.chunk|text_completion|list)"/.exec(body)?.[1];
  if (named !== undefined) return kindOfValue({ object: named });
  if (looksLikeErrorText(body)) return 'error_envelope';
  return undefined;
}
