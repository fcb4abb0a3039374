import type { CheckResult } from '#harness/core/outcome.ts';
import { mergeRepetitions, sumTraffic } from '#harness/results/index.ts';
import type { RunConfig } from './runConfig.ts';
import { runChecks } from './runChecks.ts';
import type { SuitesOptions, SuitesRun } from './suitesRun.ts';

export interface RepeatOptions {
  /** How many times the plan runs (`--repeat N`); 1 is a plain run. */
  repeat: number;
  /** The config of the next repetition, asked afresh each time: a budget then counts what the earlier ones spent. */
  configOf(): RunConfig;
  /** Each result as it comes: `n` counts within its repetition, `repetition` from 0. */
  progress?(result: CheckResult, n: number, repetition: number): void;
  /** The run's stop: the current repetition stops as runChecks does, and no other starts. */
  stop?: SuitesOptions['stop'];
  /** Each wait before a retry, in every repetition (runChecks). */
  onRetry?: SuitesOptions['onRetry'];
  /** The cap on requests in flight shared by every target of the run. */
  runCap?: SuitesOptions['runCap'];
  /** The load phase's progress (runChecks). */
  loadProgress?: SuitesOptions['loadProgress'];
  /** What the requests of each repetition wait on (runChecks). */
  waits?: SuitesOptions['waits'];
  /** After each repetition, with the config it ran under and its results (the budget settles what it spent). */
  ran?(config: RunConfig, results: readonly CheckResult[]): void;
}

/**
 * Runs one target's plan `repeat` times, one after the other. Each repetition is its own runChecks,
 * so its own RunScope: a fresh transport, meter, served gate and samples, so no answer is reused
 * and repetitions can disagree (a shared sample would make every repetition judge one answer).
 * The results are merged per check and model (results/mergeRepetitions.ts); the rest adds up,
 * but for the concurrency the transport reached (below).
 */
export async function runRepeated(options: RepeatOptions): Promise<SuitesRun> {
  const { stop } = options;
  const runs: SuitesRun[] = [];
  // A refused key ends the run: another repetition would only be refused again.
  for (let i = 0; i < options.repeat && !(i > 0 && (stop?.signal.aborted || runs.at(-1)?.keyRefused)); i++) {
    const config = options.configOf();
    const run = await runChecks(config, { progress: (r, n) => options.progress?.(r, n, i), ...(stop ? { stop } : {}), ...(options.onRetry ? { onRetry: options.onRetry } : {}), ...(options.runCap ? { runCap: options.runCap } : {}), ...(options.loadProgress ? { loadProgress: options.loadProgress } : {}), ...(options.waits ? { waits: options.waits } : {}) });
    options.ran?.(config, run.results);
    runs.push(run);
  }
  if (runs.length === 1) return runs[0]!;
  const first = runs.find((r) => r.firstCheckAt !== undefined)?.firstCheckAt;
  const last = runs.findLast((r) => r.lastCheckAt !== undefined)?.lastCheckAt;
  // Requests and retries add up. Concurrency does not: the repetitions ran one after another, each
  // with a limit of its own, so the one that reached the highest says what the endpoint took.
  const transport = sumTraffic(runs.flatMap((r) => (r.transport ? [r.transport] : [])));
  return {
    results: mergeRepetitions(runs.map((r) => r.results)),
    sent: runs.flatMap((r) => r.sent),
    ...(first !== undefined ? { firstCheckAt: first } : {}),
    ...(last !== undefined ? { lastCheckAt: last } : {}),
    requestMs: runs.reduce((ms, r) => ms + r.requestMs, 0),
    cancelled: runs.some((r) => r.cancelled),
    ...withKeyRefused(runs.find((r) => r.keyRefused)?.keyRefused),
    ...(transport ? { transport } : {}),
    // The upstream's view of the last repetition: each has its own markers, the same plan.
    ...(runs.at(-1)?.upstream ? { upstream: runs.at(-1)!.upstream } : {}),
    // The load figures of the last repetition that drove the phase: each drove its own, the same steps.
    ...withLoads(runs.findLast((r) => r.loads)?.loads),
  };
}

const withKeyRefused = (refused: SuitesRun['keyRefused']) => (refused === undefined ? {} : { keyRefused: refused });
const withLoads = (loads: SuitesRun['loads']) => (loads === undefined ? {} : { loads });
