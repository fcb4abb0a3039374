/**
 * A source of the current instant, handed to the code that needs one, so no verdict, record or
 * test depends on the day it happens to run. A run has two, kept apart:
 * - the endpoint's clock, what an answer is compared with (`created`, a retirement instant): the
 *   server's Date, `--now`, or a recording's clock in a replay (runner/referenceTime.ts);
 * - the calendar, the day the run happens: the record's `startedAt` and `finishedAt`, what a known
 *   failure's `until` is judged against (an expired entry expires in replay-based CI too).
 */
export type Clock = () => Date;

/** The machine's clock. */
export const systemClock: Clock = () => new Date();

/** The instant an answer's `Date` header names (the server's clock then), or undefined when it names none. */
export function dateHeaderMs(value: string | undefined): number | undefined {
  const at = value === undefined ? Number.NaN : Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

/** A clock that reads `start` now and advances with `base` (the machine's clock unless given). */
export function clockFrom(start: Date, base: Clock = systemClock): Clock {
  const offset = start.getTime() - base().getTime();
  return () => new Date(base().getTime() + offset);
}
