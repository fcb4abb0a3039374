import type { AnswerTimes } from '#harness/core/answerTimes.ts';
import type { LoadRun } from '#harness/core/load.ts';
import type { LoadProgress } from './loadPhase.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import type { ConcurrencyStats, KeyRefused, Semaphore, TransportOptions } from '#harness/transport/index.ts';
import type { RequestBound } from './spend/requestBound.ts';
import type { UpstreamTraffic } from '#harness/results/index.ts';
import type { Stop } from './runStop.ts';
import type { Waits } from './heartbeat.ts';

/** What one target's checks came to, whichever executor ran them (runChecks in-process, runSuites under vitest). */
export interface SuitesRun {
  results: CheckResult[];
  /** Per check run: requests sent and the most they could have cost. */
  sent: { checkId: string; model: string; count: number; bound: RequestBound; rounds?: number }[];
  /** When the first check started and the last one ended (performance.now() of this process). */
  firstCheckAt?: number;
  lastCheckAt?: number;
  /** Per worker: the wall time during which at least one request was in flight. */
  requestMs: number;
  /** True when `stop` cancelled the run before every check ran. */
  cancelled: boolean;
  /** Set when the endpoint refused the run's key (transport/keyRefusal.ts): the run ended early. */
  keyRefused?: KeyRefused;
  /** What went over the wire: HTTP requests (retries and the served-route probes included), and the concurrency the limit reached. */
  transport?: { requests: number; retries: number; concurrency: ConcurrencyStats; answerTimes?: AnswerTimes };
  /** A gateway run: what its upstream saw of the run's requests. */
  upstream?: UpstreamTraffic;
  /** The load phase's run on each model (`run --load`), for the records' figures. */
  loads?: Map<string, LoadRun>;
}

export interface SuitesOptions {
  progress?: (r: CheckResult, n: number) => void;
  /** Each wait before a retry, as the transport starts it (the heartbeat says what the run waits for). */
  onRetry?: TransportOptions['onRetry'];
  /**
   * The run's stop (runStop.ts): once its signal aborts no other check starts, nor any request of
   * the load phase; once it abandons (a grace later), every wait of the running checks ends.
   */
  stop?: Stop;
  /** The cap on requests in flight shared by every target of the run (--max-in-flight). */
  runCap?: Semaphore;
  /** The load phase's progress, as each of its requests ends. */
  loadProgress?: (p: LoadProgress) => void;
  /** Where the run's transport says what its requests wait on (the heartbeat reads it). */
  waits?: Waits;
}
