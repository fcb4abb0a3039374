import { describe, inject, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import './meta.ts';
import { planRun } from './plan.ts';
import type { RunConfig } from './runConfig.ts';
import { runMetered } from './runMetered.ts';
import { openRunScope, type RunScope } from './runScope.ts';

let scope: RunScope | undefined;

/**
 * One scope per worker and run (runSuites starts a fresh worker per target, and the suite files of
 * a run share it): the transport's cap, the budget and the samples hold across every check.
 */
function scopeFor(spec: Spec, config: RunConfig): RunScope {
  if (scope?.config !== config) scope = openRunScope(config, spec);
  return scope;
}

/**
 * The body of a suite file: one vitest test per (check, model) of an area, titled by the check id
 * inside a describe per model. Suites hold no assertion logic; the checks do. runChecks.ts runs the
 * same plan in the same order without vitest.
 */
export function describeChecks(area: string): void {
  const config = inject('svcConformance');
  const { spec } = loadSpec(config.specDir);
  const plan = planRun(spec, config, area);
  const models = [...new Set(plan.map((p) => p.model))];
  for (const model of models) {
    describe.concurrent(`${area} [${model}]`, () => {
      for (const { check } of plan.filter((p) => p.model === model)) {
        test(check.id, async ({ task, skip }) => {
          const s = scopeFor(spec, config);
          const result = await runMetered(s, check, model, (t) => {
            task.meta.svcRequests = { count: t.requests, bound: t.bound };
          });
          task.meta.svcResult = result;
          task.meta.svcWorker = { id: s.meter.id, requestMs: s.meter.requestMs() };
          const refused = s.transport.keyRefused();
          if (refused) task.meta.svcKeyRefused = refused;
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
