import type { TokenUse } from '#harness/core/outcome.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { NO_TOKENS } from '#harness/core/tokens.ts';

type Json = Record<string, unknown>;

const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
const has = (u: Json, ...keys: string[]) => keys.some((k) => k in u);

/**
 * The counts one `usage` object states, in either format (chat: prompt/completion; messages:
 * input/output); a count it does not state is left out, so a later event does not erase it.
 */
function countsIn(u: Json): Partial<TokenUse> {
  return {
    ...(has(u, 'prompt_tokens', 'input_tokens', 'cache_read_input_tokens') ? { promptTokens: n(u['prompt_tokens']) || n(u['input_tokens']) + n(u['cache_read_input_tokens']) } : {}),
    ...(has(u, 'completion_tokens', 'output_tokens') ? { completionTokens: n(u['completion_tokens']) || n(u['output_tokens']) } : {}),
    ...(has(u, 'prompt_cache_hit_tokens', 'cache_read_input_tokens') ? { cacheHitTokens: n(u['prompt_cache_hit_tokens']) || n(u['cache_read_input_tokens']) } : {}),
  };
}

/**
 * The tokens one answer says it spent, picked out as its body is read: a JSON body's `usage`; for a
 * stream, the `usage` of the events that carry one (a chat stream reports it once; a messages stream
 * splits it over message_start and message_delta), a later count replacing an earlier one. Only an
 * event whose data holds `"usage"` is parsed, so a long stream costs no second parse.
 */
export class UsageReader {
  #tokens: TokenUse = NO_TOKENS;

  get tokens(): TokenUse {
    return this.#tokens;
  }

  /** A body read as JSON. */
  body(value: unknown): void {
    if (isRecord(value) && isRecord(value['usage'])) this.#tokens = { ...NO_TOKENS, ...countsIn(value['usage']) };
  }

  /** A body read as text, which the check may parse itself. */
  text(text: string): void {
    if (!text.includes('"usage"')) return;
    try {
      this.body(JSON.parse(text));
    } catch {
      // Not JSON: no usage to count.
    }
  }

  /** One event of a stream. */
  event(data: string): void {
    if (!data.includes('"usage"')) return;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      return;
    }
    if (!isRecord(value)) return;
    const u = isRecord(value['usage']) ? value['usage'] : isRecord(value['message']) && isRecord(value['message']['usage']) ? value['message']['usage'] : undefined;
    if (u) this.#tokens = { ...this.#tokens, ...countsIn(u) };
  }
}
