import { durationText } from '#harness/core/durationText.ts';
import { STOP_GRACE_MS } from '#harness/transport/timing.ts';

/** Why a run stopped before its end: a signal (SIGINT, SIGTERM), or its time ceiling. */
export type StopCause = { kind: 'signal'; signal: 'SIGINT' | 'SIGTERM' } | { kind: 'ceiling'; ms: number };

/** What the records say interrupted a run (runRecord.ts `interruptedBy`). */
export type InterruptedBy = 'SIGINT' | 'SIGTERM' | 'ceiling';

export const interruptedBy = (cause: StopCause): InterruptedBy => (cause.kind === 'signal' ? cause.signal : 'ceiling');

/** The cause in words, for a reason or a line: `SIGINT`, `its time ceiling (32 min)`. */
export function causeText(cause: StopCause): string {
  return cause.kind === 'signal' ? cause.signal : `its time ceiling (${durationText(cause.ms)})`;
}

/**
 * What every part of a run that waits is handed, to end its waits by (never a flag it polls):
 * `signal` aborts when the run is asked to stop, and nothing new starts after it (a check, a
 * request of the load phase, a recovery try, a repetition); `abandon` aborts a grace later, and
 * every wait ends at once: requests in flight and bodies being read, Retry-After waits, the
 * recovery's.
 */
export interface Stop {
  signal: AbortSignal;
  abandon: AbortSignal;
}

/** Schedules `fire` after `ms`; returns what cancels it. Injected by tests (a ceiling that comes at once). */
export type Schedule = (ms: number, fire: () => void) => () => void;

const timers: Schedule = (ms, fire) => {
  const t = setTimeout(fire, ms);
  t.unref();
  return () => clearTimeout(t);
};

/**
 * The one place that stops a run: a signal (cli/interruptions.ts) or the run's time ceiling calls
 * `stop`; the first cause wins. The parts of the run are handed its `signal` and `abandon`
 * (runTargets → runChecks → the transport, the load phase, the reference-time ask).
 */
export class RunStop implements Stop {
  readonly #asked = new AbortController();
  readonly #abandoned = new AbortController();
  readonly #graceMs: number;
  readonly #schedule: Schedule;
  #cause: StopCause | undefined;
  #cancelGrace: (() => void) | undefined;
  #cancelCeiling: (() => void) | undefined;

  constructor(options: { graceMs?: number; schedule?: Schedule } = {}) {
    this.#graceMs = options.graceMs ?? STOP_GRACE_MS;
    this.#schedule = options.schedule ?? timers;
  }

  get signal(): AbortSignal {
    return this.#asked.signal;
  }

  get abandon(): AbortSignal {
    return this.#abandoned.signal;
  }

  get cause(): StopCause | undefined {
    return this.#cause;
  }

  get graceMs(): number {
    return this.#graceMs;
  }

  /** Asks the run to stop (idempotent: the first cause stands); its waits are abandoned after the grace. */
  stop(cause: StopCause): void {
    if (this.#cause !== undefined) return;
    this.#cause = cause;
    this.#cancelCeiling?.();
    this.#asked.abort(new Stopped(cause));
    this.#cancelGrace = this.#schedule(this.#graceMs, () => this.abandonNow());
  }

  /** Ends every wait now, without the grace (a stop asked again). */
  abandonNow(): void {
    this.#cancelGrace?.();
    if (!this.#abandoned.signal.aborted) this.#abandoned.abort(this.#asked.signal.reason);
  }

  /** Stops the run with cause `ceiling` once `ms` have passed, unless it stopped before; returns what disarms it (the run has ended). */
  ceiling(ms: number): () => void {
    this.#cancelCeiling?.();
    const cancel = this.#schedule(ms, () => this.stop({ kind: 'ceiling', ms }));
    this.#cancelCeiling = cancel;
    return cancel;
  }

  /** The run has ended: no timer of it is left. */
  dispose(): void {
    this.#cancelCeiling?.();
    this.#cancelGrace?.();
  }
}

/** A stop asked by `signal` alone (the vitest adapter's cancel): waits end a grace after it. */
export function graced(signal: AbortSignal, graceMs = STOP_GRACE_MS): Stop & { dispose(): void } {
  const abandoned = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    timer = setTimeout(() => abandoned.abort(signal.reason), graceMs);
    timer.unref();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal,
    abandon: abandoned.signal,
    dispose: () => {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    },
  };
}

/** `stop`, also asked by `also` (the budget reached, for one target): nothing new starts after either, and waits end a grace after either. */
export function stopAlsoOn(stop: Stop, also: AbortSignal, graceMs = STOP_GRACE_MS): Stop & { dispose(): void } {
  const other = graced(also, graceMs);
  return { signal: AbortSignal.any([stop.signal, also]), abandon: AbortSignal.any([stop.abandon, other.abandon]), dispose: other.dispose };
}

/** What a stopped run's signals abort with: an Error saying the cause, which the transport quotes in HARNESS_INTERRUPTED. */
export class Stopped extends Error {
  constructor(readonly stopCause: StopCause) {
    super(causeText(stopCause));
    this.name = 'Stopped';
  }
}
