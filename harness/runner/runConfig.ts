import type { ExtraHeader } from '#harness/core/extraHeaders.ts';
import type { RecordedChecks } from '#harness/replay/recordedChecks.ts';

/**
 * What the CLI hands one target's checks (runChecks.ts in-process, or the suites through vitest's
 * provide/inject): plain data, so it can cross into a worker. The key travels only in memory, never
 * through a file.
 */
export interface RunConfig {
  specDir?: string;
  target: {
    kind: 'emulator' | 'fixtures' | 'live';
    baseUrl: string;
    messagesBaseUrl: string;
    /** fixtures: the checks the recording holds, per model; any other is skipped as not recorded. */
    recording?: RecordedChecks;
  };
  apiKey: string;
  /** A second key whose balance cannot cover a request (402 checks), when the run has one. */
  emptyBalanceKey?: string;
  /** Name of the variable the key came from, for reproducers (`$SVC_API_KEY`). */
  apiKeyEnv: string;
  /** --without: features of the spec the endpoint does not offer; their checks are skipped, out of scope. */
  without?: string[];
  /** --header / --header-env: sent with every request (env-sourced values are secrets). */
  extraHeaders?: ExtraHeader[];
  /** Spec model ids to cover. */
  models: string[];
  /** spec id -> the target's own id. */
  modelMap: Record<string, string>;
  /** Requests in flight at once: where the limit starts, and all it ever is when `maxConcurrency` is absent (--concurrency N). */
  concurrency: number;
  /** Without --concurrency: the limit adapts to the endpoint up to this (transport/adaptiveLimit.ts). */
  maxConcurrency?: number;
  /** --timeout-ms: headers and body-idle timeout of every request (connect: at most 10 s); transport/timing.ts. */
  timeoutMs?: number;
  /** --deadline-ms: the most one exchange's body may take, from its headers to its last byte; transport/timing.ts. */
  deadlineMs?: number;
  strict: boolean;
  /** --only and --skip: check-id patterns (checks/selection.ts). */
  only?: string[];
  skip?: string[];
  /** --clients: the pinned clients whose `client.*` checks run (checks/selection.ts); every client's when absent. */
  clients?: string[];
  shard?: { index: number; count: number };
  runs: number;
  seed: number;
  /** The instant lifecycle checks judge against, resolved once by the CLI: --now, else the
   * server's Date header, else the local clock. */
  referenceTime: { value: string; source: 'flag' | 'server-date' | 'local-clock' | 'fixture' };
  lifecycleToleranceSeconds: number;
  /** `record`: write every exchange to DIR/exchanges (fixtures/fixture.schema.json), paths relative to target.baseUrl. */
  recordDir?: string;
  /** --budget-usd: what this target may still spend (USD, decimal string), priced at `pricedAt`. */
  budget?: { limitUsd: string; pricedAt: string };
}

/** The id the target knows a spec model by (--model-map), or the spec's own. */
export function targetModelOf(config: Pick<RunConfig, 'modelMap'>, id: string): string {
  return config.modelMap[id] ?? id;
}

declare module 'vitest' {
  export interface ProvidedContext {
    svcConformance: RunConfig;
  }
}
