import type { Timing } from '#harness/transport/timing.ts';

/** How long without a check ending before the run says it is waiting, and again after each such stretch. */
export const HEARTBEAT_MS = 15_000;

/**
 * While checks are running and none has ended for HEARTBEAT_MS, says so, with how long and what
 * bounds the wait: a silent endpoint shows as waiting, not as a hang. `beat()` when a check ends.
 */
export function heartbeat(log: (line: string) => void, timing: Timing, everyMs = HEARTBEAT_MS): { beat(): void; stop(): void } {
  let last = performance.now();
  const timer = setInterval(() => {
    const quiet = performance.now() - last;
    if (quiet < everyMs) return;
    log(`svc-conformance: waiting on the endpoint: no check has ended for ${Math.round(quiet / 1000)} s (a request waits up to ${timing.headersMs / 1000} s for headers, ${timing.idleMs / 1000} s between pieces of a body and ${timing.totalMs / 1000} s for a whole body: --timeout-ms, --deadline-ms)`);
  }, everyMs);
  timer.unref();
  return {
    beat: () => void (last = performance.now()),
    stop: () => clearInterval(timer),
  };
}
