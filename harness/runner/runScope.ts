import { secretValues } from '#harness/core/extraHeaders.ts';
import { fixtureRecorder } from '#harness/replay/fixtureFormat.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import { createTransport, type Transport, type TransportOptions } from '#harness/transport/index.ts';
import { timingOf } from '#harness/transport/timing.ts';
import { createRunShared, type RunShared } from './checkContext.ts';
import type { EndpointSettings, RunConfig } from './runConfig.ts';
import { Meter } from './spend/meter.ts';
import type { Stop } from './runStop.ts';

/**
 * Everything the checks of one target run share, and nothing another run sees: one transport (the
 * concurrency cap holds across every check), one meter (the budget and the network time count every
 * check), the served-gate and the samples. Two runs in one process (targets, tests) never share one.
 */
export interface RunScope extends RunShared {
  spec: Spec;
  config: RunConfig;
  transport: Transport;
  meter: Meter;
  /** The run's stop (runStop.ts): the load phase starts nothing after it, and its transport abandons every wait a grace later. */
  stop?: Stop;
  close(): Promise<void>;
}

export function openRunScope(config: RunConfig, spec: Spec = loadSpec(config.specDir).spec, onRetry?: TransportOptions['onRetry'], runCap?: TransportOptions['runCap'], stop?: Stop): RunScope {
  // Secret 0 is the key, secret 1 the empty-balance key: fixtures keep the index, never the key.
  const secrets = secretsOf(config);
  const record = config.recordDir !== undefined ? fixtureRecorder(config.recordDir, config.target.baseUrl) : undefined;
  const transport = createTransport({ secrets, concurrency: config.concurrency, ...(config.maxConcurrency !== undefined ? { maxConcurrency: config.maxConcurrency } : {}), retry: spec.errors.retry, timing: timingOf(config), ...(record ? { record } : {}), ...(onRetry ? { onRetry } : {}), ...(runCap ? { runCap } : {}), ...(stop ? { abandon: stop.abandon } : {}) });
  const meter = new Meter(spec, config.budget);
  // The served gate's probes wait on the network as any check's request does (a 503's backoff too):
  // their time is the run's request time, not judging.
  const metered = {
    send: (req: Parameters<Transport['send']>[0]) => {
      const end = meter.begin();
      return transport.send(req).finally(end);
    },
  };
  return { spec, config, transport, meter, ...(stop ? { stop } : {}), ...createRunShared(spec, config, metered), close: () => transport.close() };
}

/**
 * The key at 0 and the empty-balance key at 1 (a fixture keeps which of them a request carried, by
 * index; '' holds the place, and redaction passes over it), then the values of env-sourced headers.
 */
export function secretsOf(config: Pick<EndpointSettings, 'apiKey' | 'emptyBalanceKey' | 'extraHeaders'>): string[] {
  return [config.apiKey, config.emptyBalanceKey ?? '', ...secretValues(config.extraHeaders ?? [])];
}
