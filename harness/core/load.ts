/**
 * The load phase (`run --load N`), as data: the steps it ramps through, and each request it sent
 * with what came back. Written by the phase's driver (load/drive.ts), judged by the `load.*`
 * checks, and turned into the figures a report shows (results/loadFigures.ts). Types and two pure
 * functions only: the bench of the emulator under load (bench/load/) reads the same steps and
 * quantiles.
 */
import type { Exchange } from './exchange.ts';

/** The four steps a phase of `n` is made of, by role: 1, then a quarter, a half and all of n (rounded up; equal ones repeat). */
export function stepRolesOf(n: number): [number, number, number, number] {
  return [1, Math.ceil(n / 4), Math.ceil(n / 2), n];
}

/**
 * The requests in flight of each step of a phase of `n`: its steps' roles (stepRolesOf), each at
 * least one more than the step before, ascending and without repeats.
 */
export function stepsOf(n: number): number[] {
  if (!Number.isInteger(n) || n < 1) return [];
  const steps: number[] = [];
  for (const s of stepRolesOf(n)) if (s > (steps.at(-1) ?? 0)) steps.push(s);
  return steps;
}

/** The value at quantile q (0..1) of numbers sorted ascending, nearest rank; NaN when there are none. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** One request of the load phase, as the driver saw it. Times are milliseconds. */
export interface LoadExchange {
  /** Index of the step in `LoadRun.steps`, and the requests in flight that step held. */
  step: number;
  inFlight: number;
  /** Index of its prompt in `LoadRun.prompts`. */
  prompt: number;
  stream: boolean;
  /** When it was sent, from the start of the phase. */
  sentAt: number;
  /** From sending to the response headers; absent when none came. */
  headersMs?: number;
  /** From sending to the first chunk carrying text (content or reasoning); streams only. */
  firstTokenMs?: number;
  /** From sending to the last byte of the body (or to the error that ended it). */
  endMs?: number;
  /** Gaps between consecutive chunks of a stream. */
  chunkGapsMs?: number[];
  status?: number;
  /**
   * How it went wrong, when it did: `no-answer` (refused or reset before any status), `hung` (no
   * answer, or no next byte, within the run's deadlines), `cut` (the body broke after the headers),
   * `stopped` (the run was stopped or its budget reached: judged as nothing).
   */
  trouble?: { kind: 'no-answer' | 'hung' | 'cut' | 'stopped'; code: string; what: string };
  /** `usage` of the answer (a stream's last one), as reported; absent when it reported none. */
  promptTokens?: number;
  completionTokens?: number;
  /** A stream: whether a chunk carried a finish_reason, and whether `data: [DONE]` came. */
  finished?: { finishReason: boolean; done: boolean };
  /** The exchange as recorded (redacted): the evidence a failure quotes. */
  exchange: Exchange;
}

/** One load phase on one model. */
export interface LoadRun {
  model: string;
  /** The N asked for (`--load`), and the requests in flight of each step (stepsOf). */
  n: number;
  steps: number[];
  /** The prompts sent, by index: their word counts (each prompt's text is the request's body). */
  prompts: number[];
  exchanges: LoadExchange[];
  /** Wall time of each step, from its first request sent to its last ended. */
  stepMs: number[];
  /** After the peak: when the endpoint answered 200 again, or that it did not within `windowMs`. */
  recovery?: { windowMs: number; recoveredMs?: number; tries: LoadExchange[] };
  /** Set when the phase ended before its last step: the run was stopped, the budget reached, the endpoint silent at rest. */
  endedEarly?: string;
}
