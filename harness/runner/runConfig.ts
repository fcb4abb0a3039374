import type { ExtraHeader } from '#harness/core/extraHeaders.ts';
import type { RecordedChecks } from '#harness/replay/recordedChecks.ts';
import type { UpstreamRef } from '#harness/core/upstream.ts';

/**
 * The settings the run options' table sets, one field per row that names one (`sets`), typed by its
 * parser and required where it has a default: cli/runOptions.ts completes this interface from the
 * table (as this module completes vitest's ProvidedContext), so no field is written out twice.
 */
export interface OptionSettings {}

/** What every target of a run shares: the options of `run` and `record`, read (OptionSettings), and what no option sets. */
export interface RunSettings extends OptionSettings {
  command: 'run' | 'record';
  /** The spec's models the run covers: --model, else the spec's defaults, or a replay's recorded models. */
  models: string[];
  /** Requests in flight: where the limit starts; up to `maxConcurrency` when it adapts (transport/adaptiveLimit.ts), from --concurrency and --max-in-flight. */
  concurrency: number;
  maxConcurrency?: number;
  version: string;
}

/** The settings a target's checks read, by name: RunConfig is a view of them, never a second declaration. */
const CHECK_SETTINGS = ['specDir', 'models', 'concurrency', 'maxConcurrency', 'timeoutMs', 'deadlineMs', 'strict', 'only', 'skip', 'clients', 'shard', 'runs', 'coverage', 'load', 'seed'] as const satisfies readonly (keyof RunSettings)[];

type CheckSettings = Pick<RunSettings, 'models' | 'concurrency' | 'strict' | 'runs' | 'seed'> & Partial<Pick<RunSettings, Exclude<(typeof CHECK_SETTINGS)[number], 'models' | 'concurrency' | 'strict' | 'runs' | 'seed'>>>;

/** The run's settings as a target's checks see them: those the checks read, each as set (a selection left empty is left out). */
export function checkSettingsOf(s: RunSettings): CheckSettings {
  const picked = Object.fromEntries(CHECK_SETTINGS.flatMap((k) => (s[k] === undefined || (Array.isArray(s[k]) && (s[k] as unknown[]).length === 0 && k !== 'clients' && k !== 'models') ? [] : [[k, s[k]]])));
  return picked as CheckSettings;
}

/**
 * What the CLI hands one target's checks (runChecks.ts in-process, or the suites through vitest's
 * provide/inject): plain data, so it can cross into a worker. The key travels only in memory, never
 * through a file.
 */
export interface RunConfig extends CheckSettings {
  target: {
    kind: 'emulator' | 'fixtures' | 'live';
    baseUrl: string;
    messagesBaseUrl: string;
    /** fixtures: the checks the recording holds, per model; any other is skipped as not recorded. */
    recording?: RecordedChecks;
  };
  /** A gateway run: the harness's upstream side behind the target (core/upstream.ts), which gateway.* checks judge against. */
  upstream?: UpstreamRef;
  apiKey: string;
  /** A second key whose balance cannot cover a request (402 checks), when the run has one. */
  emptyBalanceKey?: string;
  /** Name of the variable the key came from, for reproducers (`$SVC_API_KEY`). */
  apiKeyEnv: string;
  /** --without: features of the spec the endpoint does not offer; their checks are skipped, out of scope. */
  without?: string[];
  /** --header / --header-env: sent with every request (env-sourced values are secrets). */
  extraHeaders?: ExtraHeader[];
  /** spec id -> the target's own id. */
  modelMap: Record<string, string>;
  /** The instant lifecycle checks judge against, resolved once by the CLI: --now, else the
   * server's Date header, else the local clock. */
  referenceTime: { value: string; source: 'flag' | 'server-date' | 'local-clock' | 'fixture' };
  lifecycleToleranceSeconds: number;
  /** `record`: write every exchange to DIR/exchanges (fixtures/fixture.schema.json), paths relative to target.baseUrl. */
  recordDir?: string;
  /** --budget-usd: what this target may still spend (USD, decimal string), priced at `pricedAt`. */
  budget?: { limitUsd: string; pricedAt: string };
}

// The slices of the settings, each what one kind of consumer reads: Picks of RunSettings and
// RunConfig, so a field is still declared once (above, or by its row in cli/runOptions.ts).

/** How long a request may wait (transport/timing.ts timingOf): --timeout-ms and --deadline-ms. */
export type TimingSettings = Pick<RunSettings, 'timeoutMs' | 'deadlineMs'>;

/** Where the reference time comes from before the target is asked (runTargets.ts referenceTimeOf): --now. */
export type ClockSettings = Pick<RunSettings, 'now'>;

/** What the records say of the gate's policy (runTargets.ts recordOptions): --repeat, --allow-flaky, --clients-gate. */
export type GateSettings = Pick<RunSettings, 'repeat' | 'allowFlaky' | 'clientsGate'>;

/** What reporting reads once the run is done (cli/reportRun.ts): --step-summary, and where `record` wrote. */
export type ReportSettings = Pick<RunSettings, 'stepSummary' | 'recordDir'>;

/** The load phase this process drives (loadShareOf): --load N, shared out by --shard. */
export type LoadSettings = Pick<RunConfig, 'load' | 'shard'>;

/** A gateway run's upstream side, which the gateway.* checks are planned for and judged against. */
export type GatewaySettings = Pick<RunConfig, 'upstream'>;

/** What a run's plan is made from (runner/plan.ts): its models, its selection of checks, its shard, a gateway's upstream and the load phase. */
export type Selection = Pick<RunConfig, 'models' | 'only' | 'skip' | 'clients'> & LoadSettings & GatewaySettings;

/** The endpoint and how it is reached: its URLs, keys, headers, model ids, and the features it does not offer. */
export type EndpointSettings = Pick<RunConfig, 'target' | 'apiKey' | 'emptyBalanceKey' | 'apiKeyEnv' | 'extraHeaders' | 'modelMap' | 'without'>;

/** What the checks judge by: --strict, --runs, --coverage, --seed, the reference time and its tolerance. */
export type JudgingSettings = Pick<RunConfig, 'strict' | 'runs' | 'coverage' | 'seed' | 'referenceTime' | 'lifecycleToleranceSeconds'>;

/** What a target's records say of it and of the run's options (buildRecords.ts). */
export type RecordedSettings = Pick<EndpointSettings, 'target' | 'modelMap' | 'without'> & Omit<Selection, 'upstream'> & Omit<JudgingSettings, 'referenceTime' | 'lifecycleToleranceSeconds'>;

/**
 * This process's share of `--load N`: all of it, or with `--shard i/c` the i-th of c shares (they add
 * up to N; the shards drive the same endpoint at once, and `merge` adds their steps up).
 */
export function loadShareOf(config: LoadSettings): number {
  const n = config.load ?? 0;
  if (config.shard === undefined) return n;
  const { index, count } = config.shard;
  return Math.floor(n / count) + (index <= n % count ? 1 : 0);
}

/** The id the target knows a spec model by (--model-map), or the spec's own. */
export function targetModelOf(config: Pick<EndpointSettings, 'modelMap'>, id: string): string {
  return config.modelMap[id] ?? id;
}

declare module 'vitest' {
  export interface ProvidedContext {
    svcConformance: RunConfig;
  }
}
