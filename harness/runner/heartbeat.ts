import type { Clock } from '#harness/core/clock.ts';
import type { Transport, Waiting } from '#harness/transport/index.ts';
import type { Timing } from '#harness/transport/timing.ts';

/** How long without a check ending before the run says it is waiting, and again after each such stretch. */
export const HEARTBEAT_MS = 15_000;

/** A wait before a retry, as the transport starts it. */
export interface RetryWait {
  status: number;
  waitMs: number;
}

/** The transports of one target's run (one per repetition), asked what their requests wait on. */
export class Waits {
  readonly #transports = new Set<Pick<Transport, 'waiting'>>();

  /** While the transport is in use; the function returned takes it off. */
  add(transport: Pick<Transport, 'waiting'>): () => void {
    this.#transports.add(transport);
    return () => this.#transports.delete(transport);
  }

  /** A wait outside the transport (the load phase's recovery between its tries), until the function returned is called. */
  hold(wait: Waiting): () => void {
    const held = { waiting: () => [wait] };
    return this.add(held);
  }

  now(): Waiting[] {
    return [...this.#transports].flatMap((t) => t.waiting());
  }
}

/** A wall-clock time for an instant of performance.now(), as the calendar reads now: `16:02:31Z`. */
const clockTime = (at: number, calendar: Clock) => `${new Date(Math.round((calendar().getTime() + (at - performance.now())) / 1000) * 1000).toISOString().slice(11, 19)}Z`;

/**
 * The one wait a heartbeat names: a retry's first (what ends last: the endpoint asked for it), else
 * the request waiting longest; with which request, for what, and until when.
 */
export function waitingText(waits: readonly Waiting[], calendar: Clock): string | undefined {
  const retries = waits.filter((w) => w.on === 'retry').sort((a, b) => b.until - a.until);
  const w = retries[0] ?? [...waits].sort((a, b) => a.since - b.since)[0];
  if (w === undefined) return undefined;
  const until = `until ${clockTime(w.until, calendar)} (${Math.max(0, Math.round((w.until - performance.now()) / 1000))} s from now)`;
  const what =
    w.on === 'retry'
      ? `${w.request} waits out ${w.retryAfter ? `the Retry-After of its HTTP ${w.status}` : `the backoff after its HTTP ${w.status}`} ${until}, then is asked again (the description's retry guidance)`
      : w.on === 'headers'
        ? `${w.request}, sent ${Math.round((performance.now() - w.since) / 1000)} s ago, waits for its response headers ${until} at the latest (--timeout-ms)`
        : `${w.request} is reading its body, ${until} at the latest (its deadline: --deadline-ms)`;
  const others = waits.length - 1;
  return `${what}${others > 0 ? `; ${others} more ${others === 1 ? 'request waits' : 'requests wait'} too` : ''}`;
}

export interface HeartbeatOptions {
  /** Named in the line when targets run at once. */
  target?: string;
  /** What the target's requests wait on now: the line names one, with until when. */
  waits?: Waits;
  /** The calendar the "until" reads (core/clock.ts). */
  calendar?: Clock;
}

/**
 * While checks are running and none has ended for HEARTBEAT_MS, says so, with how long and what the
 * run waits on: the request, for what (a retry's wait, its headers, its body) and until when; else
 * the endpoint's "not now" when retries were waited out meanwhile (the status and the wait), else
 * what bounds the wait for an answer. A silent endpoint shows as waiting, not as a hang, and one
 * that answers 503 at once is not called slow. `beat()` when a check ends.
 */
export function heartbeat(log: (line: string) => void, timing: Timing, everyMs = HEARTBEAT_MS, options: HeartbeatOptions = {}): { beat(): void; retried(wait: RetryWait): void; stop(): void } {
  const { target, waits, calendar = () => new Date() } = options;
  let last = performance.now();
  let retries = 0;
  let latest: RetryWait | undefined;
  const timer = setInterval(() => {
    const quiet = performance.now() - last;
    if (quiet < everyMs) return;
    const now = waits === undefined ? undefined : waitingText(waits.now(), calendar);
    const what =
      now !== undefined
        ? now
        : latest === undefined
          ? `a request waits up to ${timing.headersMs / 1000} s for headers, ${timing.idleMs / 1000} s between pieces of a body and ${timing.totalMs / 1000} s for a whole body: --timeout-ms, --deadline-ms`
          : `the endpoint answered "not now": ${retries} ${retries === 1 ? 'retry' : 'retries'} waited out since, the latest after HTTP ${latest.status}, ${Math.round(latest.waitMs / 1000)} s, as the description's retry guidance asks`;
    const line = `svc-conformance: waiting on the endpoint${target === undefined ? '' : ` ${target}`}: no check${target === undefined ? '' : ' of it'} has ended for ${Math.round(quiet / 1000)} s`;
    log(now !== undefined ? `${line}: ${what}` : `${line} (${what})`);
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
