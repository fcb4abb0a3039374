import { settleHandoffs } from './handoff.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { CheckTracker } from './checkTracker.ts';
import { resultHead } from './execute.ts';
import { blockedByRefusedKey, NO_REQUESTS } from './keyRefused.ts';
import { loadModelsOf, planRun, type Planned } from './plan.ts';
import { driveLoadPhase } from './loadPhase.ts';
import { loadNotRecordedReason } from '#harness/replay/recordedChecks.ts';
import { addTokens, NO_TOKENS } from '#harness/core/tokens.ts';
import { longestChainFirst } from './schedule.ts';
import { loadShareOf, type RunConfig } from './runConfig.ts';
import { runMetered } from './runMetered.ts';
import { heldUpstream } from '#harness/gateway/held.ts';
import { upstreamTrafficOf } from './upstreamTraffic.ts';
import { openRunScope, type RunScope } from './runScope.ts';
import type { RequestBound } from './spend/requestBound.ts';
import type { SuitesOptions, SuitesRun } from './suitesRun.ts';
import { checkBoundMs, timingOf } from '#harness/transport/timing.ts';

/**
 * Runs one target's checks in this process: the one runner (the suites under vitest are a thin
 * adapter over it, describeChecks.ts). Every planned (check, model) pair goes into one queue, longest
 * chain first (schedule.ts), and twice as many run at once as the transport's limit may grow to;
 * the transport holds requests in flight to its limit (adaptiveLimit.ts). Each check runs through
 * runMetered with one scope for the whole run. A stop starts no other check; the running ones get its grace.
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
    const planned = planRun(spec, config);
    const queue = longestChainFirst(planned.filter((p) => p.check.phase !== 'load'), config.runs);
    let next = 0;
    const worker = (queue: readonly Planned[]) => async () => {
      while (next < queue.length && !run.cancelled) {
        const { check, model } = queue[next++]!;
        run.firstCheckAt ??= performance.now();
        let tracked: { count: number; bound: RequestBound; rounds: number; auth: CheckTracker['auth'] } | undefined;
        const result = await guarded({ check, model }, boundMs, runMetered(scope, check, model, (t) => (tracked = { count: t.requests, bound: t.bound, rounds: t.rounds, auth: t.auth })));
        run.lastCheckAt = performance.now();
        auth.set(result, tracked?.auth ?? NO_REQUESTS);
        if (tracked) run.sent.push({ checkId: check.id, model, count: tracked.count, bound: tracked.bound, rounds: tracked.rounds });
        run.results.push(result);
        options.progress?.(result, run.results.length);
      }
    };
    const workers = checkWorkers(config);
    await Promise.all(Array.from({ length: Math.min(workers, queue.length) }, worker(queue)));
    // The load phase, once every other check has ended: model by model, its run driven, then judged.
    for (const model of loadModelsOf(spec, config)) {
      if (run.cancelled) break;
      const mine = planned.filter((p) => p.check.phase === 'load' && p.model === model);
      // Not driven where the budget is spent or a replay holds no phase of this N: its checks say so (runMetered).
      const driving = !scope.meter.reached() && loadNotRecordedReason(config.target.recording, loadShareOf(config)) === undefined;
      // Driving is the phase's checks at work: the run's time goes to requests, not start-up.
      run.firstCheckAt ??= performance.now();
      const driven = driving ? await driveLoadPhase(scope, model, options.loadProgress, options.waits) : undefined;
      if (driven) (run.loads ??= new Map()).set(model, driven.run);
      const from = run.results.length;
      next = 0;
      await Promise.all(Array.from({ length: mine.length }, worker(mine)));
      if (driven === undefined) continue;
      // The phase's tokens and requests go to the first of its checks, so the record's usage and the estimate count them.
      const first = run.results[from];
      if (first !== undefined && driven.tokens.promptTokens + driven.tokens.completionTokens > 0) run.results[from] = { ...first, tokens: addTokens(first.tokens ?? NO_TOKENS, driven.tokens) };
      const { tracker } = driven;
      run.sent.push({ checkId: first?.checkId ?? mine[0]?.check.id ?? 'load', model, count: tracker.requests, bound: tracker.bound, rounds: tracker.rounds });
    }
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
