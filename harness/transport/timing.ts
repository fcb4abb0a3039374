import { isRecord } from '#harness/core/isRecord.ts';

/**
 * How long the harness waits, defined once: every waiter (the agent's connect, headers and idle
 * timeouts, the whole-exchange deadline, the probe of the root, a check's own bound, the stop's
 * grace) reads it from here. `--timeout-ms` sets `headersMs` and `idleMs`; `--deadline-ms` sets
 * `totalMs`.
 */
export interface Timing {
  /** To open a connection. */
  connectMs: number;
  /** From sending a request to its response headers. */
  headersMs: number;
  /** The longest gap between two chunks of a body. */
  idleMs: number;
  /** The most one exchange's body may take, from its headers to its last byte, whatever it asked for. */
  totalMs: number;
}

export const DEFAULT_TIMING: Timing = { connectMs: 10_000, headersMs: 60_000, idleMs: 60_000, totalMs: 120_000 };

/**
 * What a body may take beyond a floor, per token the request allows: 10 tokens a second is slower
 * than any server a user would run checks against, so an answer within it is never cut, while a
 * trickle that would never end (a byte every few seconds) is.
 */
const MS_PER_TOKEN = 100;
/** The floor of a body's deadline: a short answer's bytes, on a slow network. */
const BODY_FLOOR_MS = 30_000;

/** The timing of a run: the defaults, with what the user set (`--timeout-ms`, `--deadline-ms`). */
export function timingOf(set: { timeoutMs?: number | undefined; deadlineMs?: number | undefined } = {}): Timing {
  const t = set.timeoutMs;
  return {
    connectMs: t === undefined ? DEFAULT_TIMING.connectMs : Math.min(t, DEFAULT_TIMING.connectMs),
    headersMs: t ?? DEFAULT_TIMING.headersMs,
    idleMs: t ?? DEFAULT_TIMING.idleMs,
    totalMs: set.deadlineMs ?? DEFAULT_TIMING.totalMs,
  };
}

/**
 * The deadline of one exchange's body (headers to last byte), from what the request asks for: the
 * floor plus MS_PER_TOKEN per token it allows (`max_tokens`, or the floor alone when it names
 * none), never above `totalMs`.
 */
export function bodyDeadlineMs(timing: Timing, body: unknown): number {
  const maxTokens = isRecord(body) && typeof body.max_tokens === 'number' && body.max_tokens > 0 ? body.max_tokens : 0;
  return Math.min(timing.totalMs, BODY_FLOOR_MS + maxTokens * MS_PER_TOKEN);
}

/** The most one check may take: a few exchanges, each at its longest, in a row; past it the check is an error. */
export function checkBoundMs(timing: Timing): number {
  return Math.max(15 * 60_000, 4 * (timing.connectMs + timing.headersMs + timing.totalMs));
}

/** After a stop (SIGINT, SIGTERM): how long requests in flight may still finish before they are abandoned and the partial reports written. */
export const STOP_GRACE_MS = 2_000;

/** How long a probe of the server's root may take: it asks only whether anything answers. */
export function rootProbeMs(timing: Timing): number {
  return Math.min(timing.connectMs, timing.headersMs);
}

/** The timing of a quick question (the root's, the server's Date): every wait as short as a root probe's. */
export function probeTiming(timing: Timing): Timing {
  const quick = rootProbeMs(timing);
  return { ...timing, headersMs: quick, idleMs: quick, totalMs: quick };
}

/** A transport's timing: what it is given, the rest DEFAULT_TIMING's. */
export function completeTiming(given: Partial<Timing> = {}): Timing {
  const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<Timing>;
  return { ...DEFAULT_TIMING, ...set };
}
