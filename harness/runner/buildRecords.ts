import { compareIds } from '#harness/core/compareIds.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { causesOf, coverageOf, judgingOf, summarize, type RunRecord, type RunTraffic, type UsageTotals } from '#harness/results/index.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { formatUsd } from '#harness/spec/money.ts';
import { costOfUse } from '#harness/spec/pricing.ts';
import type { Spec } from '#harness/spec/model.ts';
import { targetModelOf, type RecordedSettings } from './runConfig.ts';
import type { SuitesRun } from './suitesRun.ts';
import { tokensOf } from '#harness/core/tokens.ts';
import type { LoadRun } from '#harness/core/load.ts';
import { loadFiguresOf } from '#harness/results/loadFigures.ts';
import { blamedOnTheBase, wrongBaseOf } from './wrongBase.ts';

/** Tokens a model's checks reported, and their cost at the spec's prices when they were spent. */
function usageOf(spec: Spec, model: string, results: readonly CheckResult[], at: Date): UsageTotals {
  const t = tokensOf(results);
  return { ...t, costUsd: formatUsd(costOfUse(spec, model, t, at), 6) };
}

/** What a target's run sent, as its records keep it: the transport's limit at the end is the record's `final`. */
export function trafficOf(transport: SuitesRun['transport'], upstream?: SuitesRun['upstream']): RunTraffic | undefined {
  if (transport === undefined) return undefined;
  const { limit, ...concurrency } = transport.concurrency;
  const times = transport.answerTimes;
  return { requests: transport.requests, retries: transport.retries, concurrency: { ...concurrency, final: limit }, ...(times && (times.served || times.refused) ? { answerTimes: times } : {}), ...(upstream ? { upstream } : {}) };
}

/**
 * One RunRecord per model covered, in the order of config.models. `timing.loads`: the load phase's
 * run on each model that had one (`--load N`), by the spec's model id; its record carries the
 * figures of it (results/loadFigures.ts).
 */
export function buildRecords(
  spec: Spec,
  config: RecordedSettings,
  given: readonly CheckResult[],
  timing: { startedAt: Date; finishedAt: Date; spentAt: Date; interrupted: boolean; version: string; referenceTime: RunRecord['referenceTime']; options?: Pick<RunRecord['options'], 'repeat' | 'allowFlaky' | 'clientsGate'>; endedEarly?: RunRecord['endedEarly']; traffic?: RunTraffic; loads?: ReadonlyMap<string, LoadRun>; baseToTryRefuted?: true },
): RunRecord[] {
  const catalogue = buildRegistry(spec).all();
  // A base URL given with what the harness adds itself: every model's record of the target leads with it.
  const target = { kind: config.target.kind, baseUrl: config.target.baseUrl, messagesBaseUrl: config.target.messagesBaseUrl };
  // The base to try asked and found not serving either: the routes not served are the endpoint's own.
  const wrongBase = timing.baseToTryRefuted ? undefined : wrongBaseOf(spec, target, given);
  const results = wrongBase ? blamedOnTheBase(given, wrongBase) : given;
  return config.models
    .map((model) => {
      const mine = results.filter((r) => r.model === model).sort((a, b) => compareIds(a.checkId, b.checkId));
      const record: RunRecord = {
        schemaVersion: 1,
        harness: { name: 'svc-conformance', version: timing.version },
        spec: { revision: spec.revision, updated: spec.revision_updated },
        target,
        model,
        targetModel: targetModelOf(config, model),
        startedAt: timing.startedAt.toISOString(),
        finishedAt: timing.finishedAt.toISOString(),
        referenceTime: timing.referenceTime,
        options: { strict: config.strict, ...(config.only ? { only: config.only } : {}), ...(config.skip ? { skip: config.skip } : {}), ...(config.clients ? { clients: config.clients } : {}), ...(config.shard ? { shard: `${config.shard.index}/${config.shard.count}` } : {}), runs: config.runs, ...(config.coverage === undefined ? {} : { coverage: config.coverage }), ...(config.load === undefined ? {} : { load: config.load }), seed: config.seed, ...(config.without && config.without.length > 0 ? { without: config.without } : {}), ...timing.options },
        results: mine,
        summary: summarize(mine),
        causes: causesOf(mine),
        judging: judgingOf(mine),
        usage: usageOf(spec, model, mine, timing.spentAt),
        interrupted: timing.interrupted,
        ...(timing.endedEarly ? { endedEarly: timing.endedEarly } : {}),
        ...(wrongBase ? { wrongBase } : {}),
        // The target's, so every model's record of it carries the same figures.
        ...(timing.traffic ? { traffic: timing.traffic } : {}),
      };
      const load = timing.loads?.get(model);
      if (load !== undefined) record.load = loadFiguresOf(load);
      const c = coverageOf(record, catalogue);
      const notJudged = Object.fromEntries(Object.entries(c.notJudged).filter(([, n]) => n > 0));
      return c.percent === undefined ? record : { ...record, coverage: { covered: c.covered, total: c.total, percent: c.percent, ...(Object.keys(notJudged).length > 0 ? { notJudged } : {}) } };
    })
    .filter((r) => r.results.length > 0);
}
