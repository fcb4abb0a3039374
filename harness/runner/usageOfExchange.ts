import type { Exchange } from '#harness/core/exchange.ts';
import type { TokenUse } from '#harness/core/outcome.ts';
import { isRecord } from '#harness/core/isRecord.ts';

type Json = Record<string, unknown>;

const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

/** Tokens one `usage` object reports, in either format (chat: prompt/completion; messages: input/output). */
function tokensOf(u: Json): TokenUse {
  return {
    promptTokens: n(u['prompt_tokens']) || n(u['input_tokens']) + n(u['cache_read_input_tokens']),
    completionTokens: n(u['completion_tokens']) || n(u['output_tokens']),
    cacheHitTokens: n(u['prompt_cache_hit_tokens']) || n(u['cache_read_input_tokens']),
  };
}

function max(a: TokenUse, b: TokenUse): TokenUse {
  return { promptTokens: Math.max(a.promptTokens, b.promptTokens), completionTokens: Math.max(a.completionTokens, b.completionTokens), cacheHitTokens: Math.max(a.cacheHitTokens, b.cacheHitTokens) };
}

const ZERO: TokenUse = { promptTokens: 0, completionTokens: 0, cacheHitTokens: 0 };

/**
 * The tokens a recorded answer says it spent: the body's `usage`, or for a stream the largest count
 * any event reports (a chat stream reports usage once; a messages stream splits input and output over
 * message_start and message_delta). The runner counts every answer it relays, whatever the check reads.
 */
export function usageOfExchange(exchange: Exchange): TokenUse {
  const res = exchange.response;
  if (!res) return ZERO;
  if (isRecord(res.body) && isRecord(res.body['usage'])) return tokensOf(res.body['usage']);
  let out = ZERO;
  for (const e of res.events ?? []) {
    if (!e.data.includes('usage')) continue;
    let data: unknown;
    try {
      data = JSON.parse(e.data);
    } catch {
      continue;
    }
    if (!isRecord(data)) continue;
    const u = isRecord(data['usage']) ? data['usage'] : isRecord(data['message']) && isRecord(data['message']['usage']) ? data['message']['usage'] : undefined;
    if (u) out = max(out, tokensOf(u));
  }
  return out;
}

export function addTokens(a: TokenUse, b: TokenUse): TokenUse {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, cacheHitTokens: a.cacheHitTokens + b.cacheHitTokens };
}

export { max as maxTokens };
