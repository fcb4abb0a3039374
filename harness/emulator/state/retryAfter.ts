import type { Spec } from '#harness/spec/model.ts';

/**
 * Seconds for the Retry-After header the emulator sends with a 429 or a 503.
 *
 * - 503: the description says "retry after at least 30 seconds": `errors.statuses['503']
 *   .min_retry_after_seconds` (or, if that entry lacks it, `errors.retry.min_delay_after_503_seconds`).
 * - 429: the description says a Retry-After header "may be present"; the emulator chooses to send
 *   it, with the first delay of the retry guidance (`errors.retry.initial_delay_seconds`, 1 s).
 *
 * Rounded up to whole seconds, since Retry-After carries a non-negative integer (RFC 9110 10.2.3).
 */
export function retryAfterSeconds(spec: Spec, status: 429 | 503): number {
  let seconds: number | undefined;
  let from: string;
  if (status === 503) {
    seconds = spec.errors.statuses['503']?.min_retry_after_seconds ?? spec.errors.retry.min_delay_after_503_seconds;
    from = "errors.statuses['503'].min_retry_after_seconds";
  } else if (status === 429) {
    seconds = spec.errors.retry.initial_delay_seconds;
    from = 'errors.retry.initial_delay_seconds';
  } else {
    throw new Error(`retryAfterSeconds: only 429 and 503 carry Retry-After, got ${String(status)}`);
  }
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`retryAfterSeconds: spec ${from} must be a non-negative number, got ${JSON.stringify(seconds)}`);
  }
  return Math.ceil(seconds);
}
