/**
 * Requests in flight across a run's targets, at most, unless --max-in-flight says otherwise (its own
 * module: `run --help` reads it without loading the runner). Sized for one machine: twenty targets
 * at the adaptive limit's most (16) fit under it; at 800 ms twenty took 1.08x one target's time and
 * 371 MiB at peak (docs/performance.md), where 96 took 2.9x.
 */
export const DEFAULT_MAX_IN_FLIGHT = 320;
