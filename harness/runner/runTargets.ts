import type { LoadProgress } from './loadPhase.ts';
import type { Clock } from '#harness/core/clock.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { headersOf, secretValues, type ExtraHeader } from '#harness/core/extraHeaders.ts';
import { baseToTryServes, wrongBaseOf, type AskStatus } from './wrongBase.ts';
import { timingOf } from '#harness/transport/timing.ts';
import type { CostEstimate, RunRecord } from '#harness/results/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { Target } from '#harness/targets/target.ts';
import { buildRecords, trafficOf } from './buildRecords.ts';
import { keyRefusedMessage } from './keyRefused.ts';
import { notRun } from './notRun.ts';
import { planRun } from './plan.ts';
import { resolveReferenceTime } from './referenceTime.ts';
import { heartbeat, Waits } from './heartbeat.ts';
import { RunClock } from './runClock.ts';
import { checkSettingsOf, loadShareOf, targetModelOf, type ClockSettings, type EndpointSettings, type GateSettings, type RunConfig, type RunSettings, type TimingSettings } from './runConfig.ts';
import { runRepeated } from './runRepeated.ts';
import type { BudgetLedger } from './spend/budgetLedger.ts';
import { repeatedEstimate } from './spend/repeatedEstimate.ts';
import { finishRecording, startRecording } from './startRecording.ts';
import { Semaphore } from '#harness/transport/index.ts';
import { DEFAULT_MAX_IN_FLIGHT } from './maxInFlight.ts';
import { heldUpstream } from '#harness/gateway/held.ts';
import { causeText, stopAlsoOn, type RunStop } from './runStop.ts';
import { runCeiling } from './runCeiling.ts';
import { durationText } from '#harness/core/durationText.ts';

/** One target of a run, with what a targets file may set per target. */
export interface RunTarget {
  target: Target;
  modelMap: Record<string, string>;
  headers: ExtraHeader[];
  without: string[];
}

export type { RunSettings } from './runConfig.ts';

export interface RunHooks {
  /** The run's one stop (runStop.ts: SIGINT, SIGTERM, the time ceiling armed here): nothing new starts, every wait ends a grace later, the reports are written partial. */
  stop: RunStop;
  /** The day the run happens (core/clock.ts): the records' startedAt and finishedAt, which known failures' `until` is judged against. */
  calendar: Clock;
  budget?: BudgetLedger;
  /** A line for the operator (stderr). */
  log(line: string): void;
  /** A result as it comes; `count` and `planned` run over every repetition, `repetition` (from 1) is set when there are several. */
  progress?(result: CheckResult, count: number, planned: number, repetition?: { index: number; of: number }, target?: string): void;
  /** The load phase's progress, as each of its requests ends. */
  loadProgress?(p: LoadProgress, target?: string): void;
}

export interface TargetsRun {
  records: RunRecord[];
  clock: RunClock;
  estimate?: CostEstimate;
}

/** A target made ready to run: its reference time, recording, config and plan. */
interface Prepared {
  entry: RunTarget;
  startedAt: Date;
  spentAt: Date;
  referenceTime: RunConfig['referenceTime'];
  recordDir?: string;
  configOf(): RunConfig;
  config: RunConfig;
  plan: ReturnType<typeof planRun>;
}

/**
 * Runs the plan against every target: each made ready (its reference time, its recording), the cost
 * estimate (before the first live target, or any run with a budget), then each target's suites,
 * `repeat` times over (runRepeated.ts: each in its own scope, results merged per check and model).
 * Targets run at once (issue 34), each with its own transport (adaptive limit, breaker, key), under
 * one cap on requests in flight across the run (`maxInFlight`): a slow or dead target never slows
 * the others. With a budget they run one after another, so each spends only what the earlier ones
 * left. What the budget or an interruption kept from running is reported as skipped, saying why.
 * It, runEach, prepare and execute take the whole RunSettings: they hand each part its slice
 * (runConfig.ts), and the checks their RunConfig.
 */
export async function runTargets(spec: Spec, targets: readonly RunTarget[], settings: RunSettings, hooks: RunHooks): Promise<TargetsRun> {
  const together = targets.length > 1 && hooks.budget === undefined && settings.recordDir === undefined;
  // Said before anything is sent, and armed: past it the run stops as a signal stops it.
  const ceiling = runCeiling(spec, targets.map(({ target }) => (target.upstream ? { upstream: target.upstream } : {})), settings, together);
  if (!settings.quiet) hooks.log(`svc-conformance: the run ends by ${new Date(hooks.calendar().getTime() + ceiling.ms).toISOString().replace(/\.\d+Z$/, 'Z')} at the latest: its time ceiling is ${durationText(ceiling.ms)} (${ceiling.parts.join('; ')}); past it, it stops as INTERRUPTED, with the partial reports`);
  const disarm = hooks.stop.ceiling(ceiling.ms);
  try {
    return await runEach(spec, targets, settings, hooks, together);
  } finally {
    disarm();
  }
}

async function runEach(spec: Spec, targets: readonly RunTarget[], settings: RunSettings, hooks: RunHooks, together: boolean): Promise<TargetsRun> {
  const { stop } = hooks;
  const run: TargetsRun = { records: [], clock: new RunClock() };
  const runCap = together ? new Semaphore(settings.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT) : undefined;
  const counter = { count: 0, planned: 0 };
  if (!together) {
    for (const entry of targets) {
      try {
        run.records.push(...(await execute(spec, await prepare(spec, entry, settings, hooks), settings, hooks, run, counter, runCap)));
      } finally {
        await entry.target.close();
      }
    }
    return run;
  }
  // Every target is made ready at once; the estimate is said (from the first one ready) before any
  // sends its checks, and a target slow to answer for its reference time holds back no other.
  const ready = targets.map((entry) => prepare(spec, entry, settings, hooks));
  const estimated = Promise.any(ready).then(
    async (p) => {
      if (targets.some((t) => t.target.kind === 'live') && !stop.signal.aborted) run.estimate = await estimate(spec, p.config, p.plan.length, p.spentAt, settings, hooks);
    },
    () => undefined,
  );
  const records = await Promise.allSettled(
    targets.map(async (entry, i) => {
      try {
        const p = await ready[i]!;
        await estimated;
        return await execute(spec, p, settings, hooks, run, counter, runCap);
      } finally {
        await entry.target.close();
      }
    }),
  );
  // A target that could not be made ready (a usage error) fails the run as it would alone, once every other has ended.
  const failed = records.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  run.records.push(...records.flatMap((r) => (r.status === 'fulfilled' ? r.value : [])));
  return run;
}

async function prepare(spec: Spec, entry: RunTarget, settings: RunSettings, hooks: RunHooks): Promise<Prepared> {
  const { stop, budget, calendar } = hooks;
  const { target } = entry;
  const startedAt = calendar();
  // Tokens are priced as of when they were spent: a recording's, when it was made.
  const spentAt = target.recordedAt !== undefined ? new Date(target.recordedAt) : startedAt;
  const referenceTime = await referenceTimeOf(spec, entry, settings, calendar, stop.signal);
  const recordDir = settings.recordDir !== undefined && !stop.signal.aborted ? settings.recordDir : undefined;
  if (recordDir !== undefined) startRecording(recordDir, target, { spec, startedAt, clock: referenceTime.value, version: settings.version, models: settings.models, load: loadShareOf(settings) });
  // Asked again before each repetition: what the budget leaves shrinks with what each one spent.
  const configOf = () => runConfigOf(entry, settings, { referenceTime, ...(recordDir !== undefined ? { recordDir } : {}), ...(budget ? { budget: budget.remaining(spentAt) } : {}) });
  const config = configOf();
  return { entry, startedAt, spentAt, referenceTime, ...(recordDir !== undefined ? { recordDir } : {}), configOf, config, plan: planRun(spec, config) };
}

/** One target's suites and records; `runCap` is set when targets run at once, under it. */
async function execute(spec: Spec, p: Prepared, settings: RunSettings, hooks: RunHooks, run: TargetsRun, counter: { count: number; planned: number }, runCap: Semaphore | undefined): Promise<RunRecord[]> {
  const { stop, budget, log, calendar } = hooks;
  const { entry, startedAt, spentAt, referenceTime, recordDir, configOf, config, plan } = p;
  const { target } = entry;
  const { repeat } = settings;
  // A live target costs money: say what, before the first one (or before any run with a budget).
  if (run.estimate === undefined && (target.kind === 'live' || budget !== undefined) && !stop.signal.aborted) run.estimate = await estimate(spec, config, plan.length, spentAt, settings, hooks);
  counter.planned += plan.length * repeat;
  if (!settings.quiet) log(`svc-conformance: ${target.kind} ${target.baseUrl}: ${plan.length} check runs${repeat > 1 ? `, ${repeat} times over` : ''} on ${settings.models.join(', ')} (reference time ${referenceTime.value}, ${referenceTime.source})`);
  // Said whatever --quiet: a gateway run's upstream is a server the gateway must be pointed at.
  if (target.upstream) log(`svc-conformance: the upstream for the gateway: ${target.upstream.kind === 'tap' ? 'a tap in front of the real service' : target.upstream.kind === 'recorded' ? 'as recorded' : 'the embedded emulator'} at ${target.upstream.url}${target.upstream.anyKey && target.upstream.kind !== 'recorded' ? '; any key the gateway sends is accepted (--upstream-key-env VAR to require one)' : ''}`);
  const watch = budget?.watch(spec, spentAt);
  // A silent endpoint shows as waiting, with what bounds the wait, not as a hang.
  // Named in progress lines and the heartbeat when targets run at once.
  const named = runCap === undefined ? undefined : target.baseUrl;
  const waits = new Waits();
  const pulse = settings.quiet ? undefined : heartbeat(log, timingOf(settings), undefined, { ...(named === undefined ? {} : { target: named }), waits, calendar });
  const onResult = (r: CheckResult, _n: number, i: number) => {
    pulse?.beat();
    counter.count += 1;
    hooks.progress?.(r, counter.count, counter.planned, repeat > 1 ? { index: i + 1, of: repeat } : undefined, named);
    watch?.seen(r);
  };
  const timing = () => ({ startedAt, finishedAt: calendar(), spentAt, interrupted: stop.signal.aborted, version: settings.version, referenceTime, options: recordOptions(settings) });
  // Each repetition's spend is settled as it ends, so the next one's budget share is what is left.
  const settle = budget ? (c: RunConfig, results: readonly CheckResult[]) => budget.settle(buildRecords(spec, c, results, timing()), results) : undefined;
  // The budget reached stops this target as a signal stops the run.
  const here = watch ? stopAlsoOn(stop, watch.signal, stop.graceMs) : undefined;
  const suites = await runRepeated({ repeat, configOf, progress: onResult, ...(pulse ? { onRetry: pulse.retried } : {}), stop: here ?? stop, waits, ...(settle ? { ran: settle } : {}), ...(runCap ? { runCap } : {}), loadProgress: (l) => {
      pulse?.beat();
      hooks.loadProgress?.(l, named);
    } }).finally(() => {
    pulse?.stop();
    here?.dispose();
  });
  run.clock.add(suites);
  // The manifest names the checks the recording holds, so a replay skips any other as not recorded.
  if (recordDir !== undefined) finishRecording(recordDir, suites.results, target.upstream ? await heldUpstream(target.upstream.id)?.all() : undefined);
  if (!settings.quiet) for (const r of suites.results) if (r.verdict === 'flaky') log(`svc-conformance: ${r.checkId} (${r.model}) is ${r.reason ?? 'flaky'}`);
  // Said once, whatever --quiet: the one thing to fix before anything else can be judged.
  const endedEarly = suites.keyRefused === undefined ? undefined : { kind: 'key-refused' as const, message: keyRefusedMessage(suites.keyRefused, config.apiKeyEnv, target.baseUrl) };
  if (endedEarly) log(`svc-conformance: ${endedEarly.message}`);
  const why = stop.cause ? `interrupted: not run (${causeText(stop.cause)})` : watch?.signal.aborted ? budget?.notRun : undefined;
  const unrun = why === undefined ? [] : notRun(plan, suites.results, why, stop.signal.aborted ? 'interrupted' : 'budget');
  // Spent nothing; settled only so that checks the budget kept from running mark it reached.
  budget?.settle([], unrun);
  // Requests and concurrency are the target's whole run (every model at once): each of its records carries them.
  const traffic = trafficOf(suites.transport, suites.upstream);
  const results = [...suites.results, ...unrun];
  const refuted = (await wrongBaseRefuted(spec, config, results, stop.signal)) ? { baseToTryRefuted: true as const } : {};
  return buildRecords(spec, config, results, { ...timing(), ...(endedEarly ? { endedEarly } : {}), ...(traffic ? { traffic } : {}), ...(suites.loads ? { loads: suites.loads } : {}), ...refuted });
}

/** How long the base to try may take to answer its one request. */
const BASE_TO_TRY_TIMEOUT_MS = 10_000;

/**
 * Whether a base URL that looks one level too deep is not (runner/wrongBase.ts): the base to try,
 * asked once, serves nothing the base URL given did. Asked with the run's key and headers, bounded,
 * and never after a stop.
 */
async function wrongBaseRefuted(spec: Spec, config: EndpointSettings & Pick<RunConfig, 'models'>, results: readonly CheckResult[], stopped: AbortSignal): Promise<boolean> {
  const target = { kind: config.target.kind, baseUrl: config.target.baseUrl, messagesBaseUrl: config.target.messagesBaseUrl };
  const wrong = wrongBaseOf(spec, target, results);
  if (wrong === undefined || stopped.aborted) return false;
  const ask: AskStatus = async (method, url, body) => {
    try {
      const res = await fetch(url, { method, headers: { ...headersOf(config.extraHeaders ?? []), authorization: `Bearer ${config.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.any([stopped, AbortSignal.timeout(BASE_TO_TRY_TIMEOUT_MS)]) });
      await res.body?.cancel();
      return res.status;
    } catch {
      return undefined;
    }
  };
  return !(await baseToTryServes(spec, target, results, wrong, targetModelOf(config, config.models[0]!), ask));
}

/** What the records say of --repeat, --allow-flaky and --clients-gate: only what differs from a plain run. */
function recordOptions(s: GateSettings): Pick<RunRecord['options'], 'repeat' | 'allowFlaky' | 'clientsGate'> {
  return { ...(s.repeat > 1 ? { repeat: s.repeat } : {}), ...(s.allowFlaky ? { allowFlaky: true } : {}), ...(s.clientsGate ? { clientsGate: true } : {}) };
}

/** The instant lifecycle checks judge against: --now, else a recording's clock, else the target's (referenceTime.ts); a live target that gives none, this machine's, which the calendar reads. */
function referenceTimeOf(spec: Spec, { target, headers }: RunTarget, s: ClockSettings & TimingSettings, calendar: Clock, stop: AbortSignal): Promise<RunConfig['referenceTime']> {
  if (target.clock !== undefined && s.now === undefined) return Promise.resolve({ value: target.clock, source: 'fixture' });
  const ask = { modelsUrl: `${target.baseUrl}/models`, apiKey: target.apiKey, headers: headersOf(headers), secrets: [target.apiKey, ...secretValues(headers)], retry: spec.errors.retry, timing: timingOf(s) };
  return resolveReferenceTime(s.now?.toISOString(), ask, calendar, stop);
}

/** The run's cost, from the cost profile or a free dry run of the plan (spend/estimate.ts); a budget it is above stops the run before anything is spent. */
async function estimate(spec: Spec, config: RunConfig, planned: number, pricedAt: Date, settings: Pick<RunSettings, 'command' | 'quiet' | 'repeat'>, { stop, budget, log }: RunHooks): Promise<CostEstimate> {
  if (!settings.quiet) log(`svc-conformance: estimating the cost of ${planned * settings.repeat} check runs...`);
  // Loaded when needed: a run without an estimate does not load what the dry run uses.
  const { estimateCost } = await import('./spend/estimate.ts');
  // Each repetition sends the whole plan afresh: N runs cost N times one.
  const e = repeatedEstimate(await estimateCost(spec, config, pricedAt, stop), settings.repeat);
  if (stop.signal.aborted) return e;
  const how = e.method === 'plan-profile' ? 'as each check cost on the embedded emulator' : 'measured on the embedded emulator';
  log(`svc-conformance: estimated cost ${e.expected.costUsd} USD (${e.requests} requests, ${e.expected.promptTokens + e.expected.completionTokens} tokens at the spec's prices, ${how}); at most ${e.upperBound.costUsd} USD if every answer used its whole max_tokens`);
  budget?.refuseAbove(e, settings.command);
  return e;
}

/** What the checks get for one target (in-process, or through vitest's provide/inject): the target, and the run's settings as the checks see them. */
function runConfigOf({ target, modelMap, headers, without }: RunTarget, s: RunSettings, extra: Pick<RunConfig, 'referenceTime' | 'recordDir' | 'budget'>): RunConfig {
  return {
    ...checkSettingsOf(s),
    target: { kind: target.kind, baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl, ...(target.recording ? { recording: target.recording } : {}) },
    ...(target.upstream ? { upstream: target.upstream } : {}),
    apiKey: target.apiKey,
    ...(target.emptyBalanceKey ? { emptyBalanceKey: target.emptyBalanceKey } : {}),
    apiKeyEnv: target.apiKeyEnv,
    ...(headers.length > 0 ? { extraHeaders: headers } : {}),
    ...(without.length > 0 ? { without } : {}),
    modelMap,
    lifecycleToleranceSeconds: 120,
    ...extra,
  };
}
