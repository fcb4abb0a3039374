/**
 * Where a request waits for a slot when every one is taken (semaphore.ts): higher goes first. The
 * whole scale is here, so no kind of request can outrank another by accident (a property check
 * run with --runs 5000 has 5000 round trips left, and still waits behind a probe).
 */
export const PRIORITY = {
  /** A retry getting back in line after the limit came down (limit.ts): it was let in once. */
  rejoin: Number.MAX_SAFE_INTEGER,
  /** A route's probe (the served gate): every check on the route waits on it. */
  probe: Number.MAX_SAFE_INTEGER - 1,
} as const;

/** A check's request: the round trips its check still waits on after this one (schedule.ts), below the probes. */
export function chainPriority(roundTripsLeft: number): number {
  return Math.min(Math.max(0, roundTripsLeft), PRIORITY.probe - 1);
}
