import { quantile } from './load.ts';

/**
 * How long a target took to answer, by kind of answer: information, never a verdict. A gateway
 * that retries refusals upstream answers them far slower than it serves (LiteLLM asks three times
 * with back-off); the reports show it beside the requests and the concurrency.
 */
export interface AnswerTimeFigure {
  /** Attempts answered so. */
  count: number;
  /** From dispatch to the response headers, milliseconds: median, 95th percentile, slowest. */
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface AnswerTimes {
  /** Answered below 400: served. */
  served?: AnswerTimeFigure;
  /** Answered 4xx other than 429: the request refused. */
  refused?: AnswerTimeFigure;
}

/** The kind of answer a status is, as AnswerTimes counts it; undefined for "not now" (429) and 5xx. */
export const answerKindOf = (status: number): keyof AnswerTimes | undefined => (status < 400 ? 'served' : status < 500 && status !== 429 ? 'refused' : undefined);

/** The figure of some answer times (any order); undefined when there are none. */
export function answerTimeFigure(ms: readonly number[]): AnswerTimeFigure | undefined {
  if (ms.length === 0) return undefined;
  const sorted = [...ms].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n);
  return { count: sorted.length, p50Ms: round(quantile(sorted, 0.5)), p95Ms: round(quantile(sorted, 0.95)), maxMs: round(sorted.at(-1)!) };
}
