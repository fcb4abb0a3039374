/**
 * Requests in flight across a run's targets, at most, unless --max-in-flight says otherwise (its own
 * module: `run --help` reads it without loading the runner). Sized for one machine: twenty targets
 * at the adaptive limit's start (4) fit under it, and the harness's own work stays below a core.
 */
export const DEFAULT_MAX_IN_FLIGHT = 96;
