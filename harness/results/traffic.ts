import type { AnswerTimes } from '#harness/core/answerTimes.ts';

/** What `sumTraffic` needs of a run's traffic: the record's RunTraffic, or the transport's own stats. */
export interface TrafficLike<C extends { reached: number }> {
  requests: number;
  retries: number;
  concurrency: C;
  answerTimes?: AnswerTimes;
}

/**
 * Several runs of one target as one: requests and retries add up; concurrency is the run's that
 * reached the most (the earliest of equals), since in-flight counts do not add (see the callers for
 * why the most one run reached is the figure to keep). Undefined when there is no run to add.
 */
export function sumTraffic<C extends { reached: number }>(runs: readonly TrafficLike<C>[]): TrafficLike<C> | undefined {
  if (runs.length === 0) return undefined;
  const highest = runs.reduce((a, b) => (b.concurrency.reached > a.concurrency.reached ? b : a));
  return {
    requests: runs.reduce((n, r) => n + r.requests, 0),
    retries: runs.reduce((n, r) => n + r.retries, 0),
    concurrency: highest.concurrency,
    // Percentiles do not add either: the same run's, beside its concurrency.
    ...(highest.answerTimes ? { answerTimes: highest.answerTimes } : {}),
  };
}
