import { backoffCapMs, retryAfterMs } from '#harness/core/retryAfter.ts';
import type { RetryPolicy } from '#harness/spec/model.ts';

/**
 * How long to wait before the next attempt, or `undefined` when the response is final. Pure: the
 * jitter source and the clock (for a `Retry-After` date) are arguments.
 *
 * The description's retry guidance (Errors > Rules), as `spec/errors.yaml` `errors.retry` holds it:
 * - retry on `statuses` (429, 503) and on `advised_statuses` (500); anything else is final;
 * - at most `max_attempts` attempts in total: after attempt `max_attempts` the response is final;
 * - `Retry-After` first (when `read_retry_after_first`): delta-seconds or an HTTP date, taken as
 *   the server gave it (no jitter) up to the back-off cap `max_delay_seconds`; one beyond the cap is
 *   not waited out at all (`beyondCap`: the answer is final); an unreadable value falls back to backoff;
 * - otherwise `initial_delay * multiplier^(attempt-1)`, capped at `max_delay`, plus jitter drawn
 *   uniformly from `[jitter.min, jitter.max]` seconds;
 * - after a 503, never less than `min_delay_after_503_seconds`.
 *
 * @param attempt the 1-based number of the attempt that was just answered with `status`
 * @param retryAfter the raw `Retry-After` header of that answer, if any
 * @param random a number in [0, 1) (`Math.random` in production)
 * @param now the clock, in epoch milliseconds, that an HTTP-date `Retry-After` is measured from
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  status: number,
  retryAfter: string | undefined,
  random: () => number,
  now: number,
): number | undefined {
  const retryable = policy.statuses.includes(status) || (policy.advised_statuses ?? []).includes(status);
  if (!retryable || attempt >= policy.max_attempts) return undefined;
  return backoffMs(policy, attempt, status, retryAfter, random, now);
}

/** The policy's wait after `attempt` was answered with `status`, whether or not the policy retries that status: Retry-After first, else backoff with jitter. */
export function backoffMs(policy: RetryPolicy, attempt: number, status: number, retryAfter: string | undefined, random: () => number, now: number): number {
  let ms = policy.read_retry_after_first ? retryAfterMs(retryAfter, now) : undefined;
  if (ms === undefined) {
    const backoff = Math.min(policy.initial_delay_seconds * policy.multiplier ** (attempt - 1), policy.max_delay_seconds);
    const { min, max } = policy.jitter_seconds;
    ms = (backoff + min + random() * (max - min)) * 1000;
  }
  if (status === 503) ms = Math.max(ms, policy.min_delay_after_503_seconds * 1000);
  return Math.round(ms);
}

/** A `Retry-After` the guidance does not wait out: longer than its back-off cap, with both in ms. */
export interface BeyondCap {
  askedMs: number;
  capMs: number;
}

/**
 * Whether the `Retry-After` of an answer asks for more than the cap: then it is not waited out, and
 * the answer is the request's last (a refusal, reported with the wait it asked). Backoff without
 * Retry-After is capped by the policy itself, and never beyond.
 */
export function beyondCap(policy: RetryPolicy, retryAfter: string | undefined, now: number): BeyondCap | undefined {
  const askedMs = policy.read_retry_after_first ? retryAfterMs(retryAfter, now) : undefined;
  const capMs = backoffCapMs(policy);
  return askedMs !== undefined && askedMs > capMs ? { askedMs: Math.round(askedMs), capMs } : undefined;
}

export { backoffCapMs, retryAfterMs };
