import type { CheckResult, Verdict } from '#harness/core/outcome.ts';

/**
 * Everything one run learned about one base URL and one model. Reports are rendered from this
 * alone (render/ imports only results/), so every report can be rebuilt from a saved report.json.
 * Its JSON Schema is reports/report.schema.json.
 */
export interface RunRecord {
  schemaVersion: 1;
  harness: { name: 'svc-conformance'; version: string };
  spec: { revision: string; updated: string };
  target: {
    kind: 'emulator' | 'fixtures' | 'live';
    baseUrl: string;
    messagesBaseUrl: string;
  };
  /** The spec's model id this record is about, and the id the target was asked for (model map). */
  model: string;
  targetModel: string;
  startedAt: string;
  finishedAt: string;
  /** The instant lifecycle checks judged against, and where it came from. */
  referenceTime: { value: string; source: 'flag' | 'server-date' | 'local-clock' | 'fixture' };
  options: {
    strict: boolean;
    only?: string;
    shard?: string;
    runs: number;
    seed: number;
  };
  results: CheckResult[];
  summary: Summary;
  usage: UsageTotals;
  /** True when the run was stopped (SIGINT) before every check ran. */
  interrupted: boolean;
}

export type Summary = Record<Verdict, number> & {
  total: number;
  /** Failing checks of severity must: any makes the run exit 1. */
  mustFailures: number;
  shouldFailures: number;
  advisoryFailures: number;
};

export interface UsageTotals {
  promptTokens: number;
  completionTokens: number;
  cacheHitTokens: number;
  /** USD at the spec's prices, as a decimal string. */
  costUsd: string;
}

/** Across cells (base URL x model) of one run. */
export interface RunSummary {
  schemaVersion: 1;
  startedAt: string;
  finishedAt: string;
  cells: { baseUrl: string; model: string; report: string; summary: Summary; usage: UsageTotals }[];
  totals: Summary;
  exitCode: 0 | 1;
}
