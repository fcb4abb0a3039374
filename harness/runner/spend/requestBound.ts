import { isUnspecified, type Spec } from '#harness/spec/model.ts';
import { parseQuantity } from '#harness/spec/quantity.ts';

export interface RequestBound {
  promptTokens: number;
  completionTokens: number;
  /** Requests with no cap the spec states (no max_tokens, and no default or maximum for the model). */
  unbounded: number;
}

/** The most a model's quantity can mean (a "K" read either way), when the spec states it. */
function high(spec: Spec, model: string, key: 'default_max_tokens' | 'max_output_tokens'): number | undefined {
  const q = spec.models[model]?.[key];
  if (q === undefined || isUnspecified(q)) return undefined;
  return parseQuantity(q)?.high;
}

const positive = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

/**
 * The most one request can cost, in tokens: every byte of the body as sent a prompt token (a token
 * covers at least one byte, and the body's JSON punctuation outweighs a chat template's few tokens
 * per message), and the output cap it asks for (max_tokens, at most the model's maximum; without one,
 * the model's default or maximum) times `n`. An upper bound: real answers stop far earlier.
 */
export function requestBound(spec: Spec, model: string, body: unknown, rawBody: string | undefined): RequestBound {
  if (rawBody !== undefined) return { promptTokens: Buffer.byteLength(rawBody), completionTokens: 0, unbounded: 0 };
  if (typeof body !== 'object' || body === null) return { promptTokens: 0, completionTokens: 0, unbounded: 0 };
  const b = body as Record<string, unknown>;
  const most = high(spec, model, 'max_output_tokens');
  // A cap above the model's maximum (a probe the spec says is refused) can still not yield more than it.
  const asked = positive(b['max_tokens']) ?? positive(b['max_completion_tokens']);
  const cap = asked !== undefined ? Math.min(asked, most ?? asked) : (high(spec, model, 'default_max_tokens') ?? most);
  const n = positive(b['n']) ?? 1;
  return { promptTokens: Buffer.byteLength(JSON.stringify(body)), completionTokens: (cap ?? 0) * n, unbounded: cap === undefined ? 1 : 0 };
}

export function addBound(a: RequestBound, b: RequestBound): RequestBound {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, unbounded: a.unbounded + b.unbounded };
}

export const NO_BOUND: RequestBound = { promptTokens: 0, completionTokens: 0, unbounded: 0 };
