import { describe, inject, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import './meta.ts';
import { planRun } from './plan.ts';
import type { RunConfig } from './runConfig.ts';
import { runChecks } from './runChecks.ts';
import { graced } from './runStop.ts';
import type { SuitesRun } from './suitesRun.ts';

/** The one run of a worker's config: its suite files share it (runSuites runs them in one worker, one after another). */
let shared: { key: string; run: Promise<SuitesRun>; stop: AbortController } | undefined;

/**
 * The run the suites report: runChecks (the one runner: its queue, its limit), started by the first
 * test of the first file and awaited by every test. A cancelled vitest run aborts each waiting
 * test's signal; that stops the run as a stop stops runChecks.
 */
function theRun(config: RunConfig, signal: AbortSignal): Promise<SuitesRun> {
  const key = JSON.stringify(config);
  if (shared?.key !== key) {
    const stop = new AbortController();
    // Its waits end a grace after the cancel, as a run's do after a signal (runStop.ts).
    const graceful = graced(stop.signal);
    shared = { key, stop, run: runChecks(config, { stop: graceful }).finally(graceful.dispose) };
  }
  const { stop } = shared;
  signal.addEventListener('abort', () => stop.abort('the vitest run was cancelled'), { once: true });
  return shared.run;
}

/**
 * The body of a suite file: a thin adapter that reports, as one vitest test per (check, model) of
 * an area titled by the check id inside a describe per model, what the one runner found. Suites
 * hold no assertion logic (the checks do) and no scheduling (runChecks does).
 */
export function describeChecks(area: string): void {
  const config = inject('svcConformance');
  const { spec } = loadSpec(config.specDir);
  const plan = planRun(spec, config, area);
  const models = [...new Set(plan.map((p) => p.model))];
  for (const model of models) {
    describe.concurrent(`${area} [${model}]`, () => {
      for (const { check } of plan.filter((p) => p.model === model)) {
        test(check.id, async ({ task, skip, signal }) => {
          const run = await theRun(config, signal);
          const result = run.results.find((r) => r.checkId === check.id && r.model === model);
          if (!result) return skip('not run: the run was stopped before this check started');
          const sent = run.sent.find((s) => s.checkId === check.id && s.model === model);
          if (sent) task.meta.svcRequests = { count: sent.count, bound: sent.bound };
          task.meta.svcResult = result;
          task.meta.svcRun = { requestMs: run.requestMs, cancelled: run.cancelled, ...(run.keyRefused ? { keyRefused: run.keyRefused } : {}), ...(run.transport ? { transport: run.transport } : {}) };
          if (result.verdict === 'skip' || result.verdict === 'unsupported') skip(`${result.verdict}: ${result.reason ?? ''}`);
          if (result.verdict === 'fail') throw new Error(result.failures?.map((f) => f.message).join('\n') ?? 'failed');
          if (result.verdict === 'error') throw new Error(result.reason ?? 'error');
        });
      }
    });
  }
  if (plan.length === 0) {
    test.skip(`${area}: no check selected`, () => undefined);
  }
}
