import type { Timing } from '#harness/transport/timing.ts';

/** How long without a check ending before the run says it is waiting, and again after each such stretch. */
export const HEARTBEAT_MS = 15_000;

/** A wait before a retry, as the transport starts it. */
export interface RetryWait {
  status: number;
  waitMs: number;
}

/**
 * While checks are running and none has ended for HEARTBEAT_MS, says so, with how long and what the
 * run waits for: the endpoint's "not now" when retries were waited out meanwhile (the status and the
 * wait), else what bounds the wait for an answer. A silent endpoint shows as waiting, not as a hang,
 * and one that answers 503 at once is not called slow. `beat()` when a check ends.
 */
export function heartbeat(log: (line: string) => void, timing: Timing, everyMs = HEARTBEAT_MS, target?: string): { beat(): void; retried(wait: RetryWait): void; stop(): void } {
  let last = performance.now();
  let retries = 0;
  let latest: RetryWait | undefined;
  const timer = setInterval(() => {
    const quiet = performance.now() - last;
    if (quiet < everyMs) return;
    const what =
      latest === undefined
        ? `a request waits up to ${timing.headersMs / 1000} s for headers, ${timing.idleMs / 1000} s between pieces of a body and ${timing.totalMs / 1000} s for a whole body: --timeout-ms, --deadline-ms`
        : `the endpoint answered "not now": ${retries} ${retries === 1 ? 'retry' : 'retries'} waited out since, the latest after HTTP ${latest.status}, ${Math.round(latest.waitMs / 1000)} s, as the description's retry guidance asks`;
    log(`svc-conformance: waiting on the endpoint${target === undefined ? '' : ` ${target}`}: no check${target === undefined ? '' : ' of it'} has ended for ${Math.round(quiet / 1000)} s (${what})`);
  }, everyMs);
  timer.unref();
  return {
    beat: () => {
      last = performance.now();
      retries = 0;
      latest = undefined;
    },
    retried: (wait) => {
      retries += 1;
      latest = wait;
    },
    stop: () => clearInterval(timer),
  };
}
