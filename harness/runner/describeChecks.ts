import { describe, inject, test } from 'vitest';
import { redactValue } from '#harness/core/redact.ts';
import { fixtureRecorder } from '#harness/replay/fixtureFormat.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { createTransport } from '#harness/transport/index.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import type { Check } from '#harness/checks/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import { createCheckContext, type Sender } from './checkContext.ts';
import { CheckTracker } from './checkTracker.ts';
import { executeCheck } from './execute.ts';
import './meta.ts';
import { planRun } from './plan.ts';
import type { RunConfig } from './runConfig.ts';
import { Meter } from './spend/meter.ts';
import { basisText } from '#harness/spec/basis.ts';
import { secretValues } from '#harness/core/extraHeaders.ts';

let sender: { config: RunConfig; sender: Sender } | undefined;
let meter: { config: RunConfig; meter: Meter } | undefined;

/** One meter per worker and run: the budget and the network time count every check it runs. */
function meterFor(spec: Spec, config: RunConfig): Meter {
  if (meter?.config !== config) meter = { config, meter: new Meter(spec, config.budget) };
  return meter.meter;
}

/** One check on one model, metered: tokens are what the answers reported, whoever read them. */
export async function runMetered(spec: Spec, config: RunConfig, send: Sender, m: Meter, check: Check, model: string, onTracked?: (t: CheckTracker) => void): Promise<CheckResult> {
  const base = { checkId: check.id, title: check.title, area: check.area, severity: check.severity, basis: basisText(check.basis), specRefs: check.specRefs, model };
  if (m.reached()) return { ...base, verdict: 'skip', reason: `budget: not run, the run's spend reached its --budget-usd of ${config.budget?.limitUsd ?? '?'} USD`, durationMs: 0 };
  const tracker = new CheckTracker(m, spec);
  const ctx = createCheckContext(spec, config, send, model, tracker);
  const result = await executeCheck(check, ctx, () => tracker.settle(), config.apiKeyEnv, headerVariablesOf(config));
  onTracked?.(tracker);
  // A check cut short by the budget judged nothing, whatever it made of the refused request.
  let final = result;
  if (tracker.budgetStop !== undefined) {
    const { failures: _dropped, ...rest } = result;
    final = { ...rest, verdict: 'skip', reason: tracker.budgetStop };
  }
  // Checks read raw answers: an endpoint that echoes the key would put it in a failure message.
  return redactValue(final, secretsOf(config));
}

/**
 * The key at 0 and the empty-balance key at 1 (a fixture keeps which of them a request carried, by
 * index; '' holds the place, and redaction passes over it), then the values of env-sourced headers.
 */
function secretsOf(config: RunConfig): string[] {
  return [config.apiKey, config.emptyBalanceKey ?? '', ...secretValues(config.extraHeaders ?? [])];
}

/** Reproducers read env-sourced headers back from their variables. */
const headerVariablesOf = (config: RunConfig): Record<string, string> => Object.fromEntries((config.extraHeaders ?? []).filter((h) => h.env !== undefined).map((h) => [h.name.toLowerCase(), h.env!]));

/** One transport per worker and run: the concurrency cap holds across every check. */
function senderFor(config: RunConfig): Sender {
  if (sender?.config !== config) {
    const { spec } = loadSpec(config.specDir);
    // Secret 0 is the key, secret 1 the empty-balance key: fixtures keep the index, never the key.
    const secrets = secretsOf(config);
    const record = config.recordDir !== undefined ? fixtureRecorder(config.recordDir, config.target.baseUrl) : undefined;
    const t = config.timeoutMs;
    const timeouts = t === undefined ? {} : { timeouts: { headersMs: t, bodyMs: t, connectMs: Math.min(t, 10_000) } };
    sender = { config, sender: createTransport({ secrets, concurrency: config.concurrency, retry: spec.errors.retry, ...timeouts, ...(record ? { record } : {}) }) };
  }
  return sender.sender;
}

/**
 * The body of a suite file: one vitest test per (check, model) of an area, titled by the check id
 * inside a describe per model. Suites hold no assertion logic; the checks do.
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
          const m = meterFor(spec, config);
          const result = await runMetered(spec, config, senderFor(config), m, check, model, (t) => {
            task.meta.svcRequests = { count: t.requests, bound: t.bound };
          });
          task.meta.svcResult = result;
          task.meta.svcWorker = { id: m.id, requestMs: m.requestMs() };
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
