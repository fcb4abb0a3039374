import { settleHandoffs } from './handoff.ts';
import type { CheckResult, TokenUse } from '#harness/core/outcome.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { CheckTracker } from './checkTracker.ts';
import { resultHead } from './execute.ts';
import { blockedByRefusedKey, NO_REQUESTS } from './keyRefused.ts';
import { planPhases, type Planned } from './plan.ts';
import { driveLoadPhase } from './loadPhase.ts';
import { longestChainFirst } from './schedule.ts';
import type { RunConfig } from './runConfig.ts';
import { runMetered } from './runMetered.ts';
import { heldUpstream } from '#harness/gateway/held.ts';
import { upstreamTrafficOf } from './upstreamTraffic.ts';
import { openRunScope, type RunScope } from './runScope.ts';
import type { RequestBound } from './spend/requestBound.ts';
import type { SuitesOptions, SuitesRun } from './suitesRun.ts';
import { checkBoundMs, timingOf } from '#harness/transport/timing.ts';

/** A (check, model) of the queue; `spent`: tokens spent on its account before it runs (runMetered). */
type Queued = Planned & { spent?: TokenUse };

/**
 * Runs one target's checks in this process: the one runner (the suites under vitest are a thin
 * adapter over it, describeChecks.ts). The plan's phases run in order, in one loop (plan.ts
 * planPhases): the checks at rest in one queue, longest chain first (schedule.ts), twice as many at
 * once as the transport's limit may grow to (the transport holds requests in flight to its limit,
 * adaptiveLimit.ts); then the load phase, model by model, driven (loadPhase.ts) and judged by its
 * checks. Each check runs through runMetered with one scope for the whole run. A stop starts no
 * other check; the running ones get its grace.
 */
export async function runChecks(config: RunConfig, options: SuitesOptions = {}): Promise<SuitesRun> {
  const { spec } = loadSpec(config.specDir);
  const { stop } = options;
  // The stop reaches the transport: a grace after it, every request and wait of the running checks is abandoned.
  const scope = openRunScope(config, spec, options.onRetry, options.runCap, stop);
  const run: SuitesRun = { results: [], sent: [], requestMs: 0, cancelled: false };
  const unwatch = options.waits?.add(scope.transport);
  const boundMs = checkBoundMs(timingOf(config));
  /** What each result's check did with the key, for judging it again once the key is refused. */
  const auth = new Map<CheckResult, CheckTracker['auth']>();
  // No check starts once the run is asked to stop; the running ones end by the stop's grace.
  const cancel = () => {
    run.cancelled = true;
  };
  if (stop?.signal.aborted) cancel();
  stop?.signal.addEventListener('abort', cancel, { once: true });
  try {
    /** Runs `queue` on `width` workers, each taking the next (check, model) until none is left or the run stops. */
    const runQueue = async (queue: readonly Queued[], width: number) => {
      let next = 0;
      const worker = async () => {
        while (next < queue.length && !run.cancelled) {
          const { check, model, spent } = queue[next++]!;
          run.firstCheckAt ??= performance.now();
          let tracked: { count: number; bound: RequestBound; rounds: number; auth: CheckTracker['auth'] } | undefined;
          const result = await guarded({ check, model }, boundMs, runMetered(scope, check, model, (t) => (tracked = { count: t.requests, bound: t.bound, rounds: t.rounds, auth: t.auth }), spent));
          run.lastCheckAt = performance.now();
          auth.set(result, tracked?.auth ?? NO_REQUESTS);
          if (tracked) run.sent.push({ checkId: check.id, model, count: tracked.count, bound: tracked.bound, rounds: tracked.rounds });
          run.results.push(result);
          options.progress?.(result, run.results.length);
        }
      };
      await Promise.all(Array.from({ length: Math.min(width, queue.length) }, worker));
    };
    for (const phase of planPhases(spec, config)) {
      if (run.cancelled) break;
      if (phase.kind === 'at-rest') {
        await runQueue(longestChainFirst(phase.checks, config.runs), checkWorkers(config));
        continue;
      }
      // The load phase on one model, once every check at rest has ended: driven, then judged by its checks, all at once.
      // Driving is the phase's checks at work: the run's time goes to requests, not start-up.
      run.firstCheckAt ??= performance.now();
      const driven = await driveLoadPhase(scope, phase.model, options.loadProgress, options.waits);
      // What driving it spent is its first check's own (runMetered `spent`), so the record's usage and the estimate
      // count it; its requests are entered under that check too, after the check's own entry.
      await runQueue(phase.checks.map((p, i) => (i === 0 && driven ? { ...p, spent: driven.tokens } : p)), phase.checks.length);
      if (driven) run.sent.push({ checkId: phase.checks[0]?.check.id ?? 'load', model: phase.model, count: driven.tracker.requests, bound: driven.tracker.bound, rounds: driven.tracker.rounds });
    }
    // The runs the phase drove, as the scope holds them for its checks: the reports' figures.
    if (scope.loads.size > 0) run.loads = new Map(scope.loads);
    run.requestMs = scope.meter.requestMs();
    const { requests, retries, concurrency, answerTimes } = scope.transport.stats();
    run.transport = { requests, retries, concurrency, answerTimes };
    const upstream = config.upstream === undefined ? undefined : heldUpstream(config.upstream.id);
    if (upstream !== undefined) run.upstream = await upstreamTrafficOf(upstream, scope.marks);
    // The key refused: the checks that ended before it was declared, on 401s to it, judged nothing either.
    const refused = scope.transport.keyRefused();
    if (refused !== undefined) {
      run.keyRefused = refused;
      run.results = run.results.map((r) => blockedByRefusedKey(r, auth.get(r) ?? NO_REQUESTS, refused));
    }
    run.results = settleHandoffs(run.results);
  } finally {
    stop?.signal.removeEventListener('abort', cancel);
    unwatch?.();
    await closeQuietly(scope);
  }
  return run;
}

/**
 * How many checks run at once: twice the limit. A check waiting on an answer another check shares,
 * or on a route's probe, holds no request slot; checks beyond the limit wait for one in the
 * transport, in chain order.
 */
export function checkWorkers(config: Pick<RunConfig, 'concurrency' | 'maxConcurrency'>): number {
  return 2 * Math.max(1, config.concurrency, config.maxConcurrency ?? 0);
}

/**
 * The check's result, or an error result when the glue itself threw or the check outlived the
 * per-check limit (what vitest reports for a test that ended without a result): never dropped.
 */
async function guarded({ check, model }: Planned, boundMs: number, running: Promise<CheckResult>): Promise<CheckResult> {
  const base = resultHead(check, model);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((done) => {
    const what = `the check did not end within ${boundMs / 1000} s`;
    timer = setTimeout(() => done({ ...base, verdict: 'error', reason: what, cause: { code: 'CHECK_BOUND', what }, durationMs: boundMs }), boundMs);
  });
  try {
    return await Promise.race([running, timeout]);
  } catch (err) {
    const what = `the runner threw: ${(err as Error).message ?? String(err)}`;
    return { ...base, verdict: 'error', reason: what, cause: { code: 'RUNNER_THREW', what }, durationMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/** A transport that fails to close says nothing of the checks, whose results are in. */
async function closeQuietly(scope: RunScope): Promise<void> {
  await scope.close().catch(() => undefined);
}
