/**
 * The load phase's run on one model as its checks judge it: each request with what came back
 * (core/load.ts) and what the driver (load/drive.ts) judged of its answer once, for every check.
 * The runner drives the phase and hands the run to its checks (CheckContext `load`): they read it,
 * and send nothing.
 */
import type { Answer } from '#harness/core/answer.ts';
import type { LoadExchange, LoadRun } from '#harness/core/load.ts';
import { seconds } from '#harness/core/waitDefect.ts';
import type { Breach } from '../answer/breach.ts';

/** One request of the phase with what the load checks judge of it; `res` is absent when no answer came. */
export interface DrivenExchange extends LoadExchange {
  res?: Answer;
  /** The rules the answer breaks at must, each the one its check at rest holds (checks/answer/conformance.ts); 200s only. */
  problems: Breach[];
  /** The text it carried (a body's content, a stream's assembled content): what tells deterministic answers apart without usage. */
  content?: string;
  /**
   * A 200 that is no answer: nothing in its body (`empty`), or the error envelope (`error`, with
   * what it says): a refusal sent as a success. The refusal check's to judge; the others leave it.
   */
  noAnswer?: { kind: 'empty' } | { kind: 'error'; said: string };
}

export interface DrivenLoad extends LoadRun {
  exchanges: DrivenExchange[];
  recovery?: DrivenRecovery;
}

/**
 * How long the endpoint is given after the peak, and why: the longest Retry-After the peak gave, up
 * to the description's back-off cap (past it, the cap), else the spec's window without one.
 */
export interface RecoveryWindow {
  windowMs: number;
  /** The longest Retry-After at the peak, when any: beyond `capMs`, it was not the window. */
  askedMs?: number;
  capMs: number;
}

export interface DrivenRecovery extends RecoveryWindow {
  recoveredMs?: number;
  tries: DrivenExchange[];
  /** A try refused with a Retry-After beyond the cap: not waited out, it ended the recovery (its wait, in ms). */
  refused?: { askedMs: number; x: DrivenExchange };
  /** Set when the run's stop ended it. */
  stopped?: string;
}

/** The window in words: `10 s (the peak gave no Retry-After: the spec's window without one)`. */
export function recoveryWindowText(w: RecoveryWindow): string {
  const why =
    w.askedMs === undefined
      ? "the peak gave no Retry-After: the spec's window without one"
      : w.askedMs > w.capMs
        ? `the longest Retry-After at the peak, ${seconds(w.askedMs)} s, is beyond the description's back-off cap of ${seconds(w.capMs)} s`
        : 'the longest Retry-After at the peak';
  return `${seconds(w.windowMs)} s (${why})`;
}
