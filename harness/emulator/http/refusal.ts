/**
 * An error answer of the emulator: the status the spec names and the envelope the spec describes,
 * `{"error": {"message", "type", "code"}}` (plus `param`, which real endpoints add). The message
 * names the offending field.
 */
export interface Refusal {
  status: number;
  message: string;
  type: string;
  code: string;
  /** The offending request field, dotted (`messages.0.role`), or null. */
  param: string | null;
  /** Extra response headers (Retry-After on 429 and 503). */
  headers?: Record<string, string>;
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && typeof (value as Refusal).status === 'number' && typeof (value as Refusal).message === 'string';
}

/** The envelope of a refusal, as JSON text. */
export function refusalBody(r: Refusal): string {
  return JSON.stringify({ error: { message: r.message, type: r.type, param: r.param, code: r.code } });
}

export function refusalResponse(r: Refusal): Response {
  return new Response(refusalBody(r), {
    status: r.status,
    headers: { 'content-type': 'application/json', ...(r.headers ?? {}) },
  });
}
