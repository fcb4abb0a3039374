/**
 * A `Retry-After` value in milliseconds: delta-seconds (RFC 9110 says digits; a decimal is accepted
 * too) or an HTTP date (a date in the past means now). `undefined` when absent or unreadable. One
 * reading for the transport's retries and the load phase's recovery window alike.
 */
/**
 * The longest wait the description's retry guidance allows a `Retry-After`: its back-off cap
 * (`errors.retry.max_delay_seconds`). One beyond it is not waited out, in any phase: the request
 * is taken as refused.
 */
export const backoffCapMs = (policy: { max_delay_seconds: number }): number => policy.max_delay_seconds * 1000;

export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // Date.parse also reads bare numbers ("-1", "12") as dates: only text with a letter is a date here.
  if (!/[a-z]/i.test(text)) return undefined;
  // HTTP dates are GMT; asctime form names no zone, and Date.parse would read it as local time.
  const at = Date.parse(/\b(GMT|UTC)\b|[+-]\d{4}$/i.test(text) ? text : `${text} GMT`);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
