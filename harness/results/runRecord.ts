import type { CheckResult, SkipKind, Verdict } from '#harness/core/outcome.ts';
import type { Cause } from './causes.ts';
import type { Judging } from './judging.ts';
import type { LoadFigures } from './loadFigures.ts';
import type { AnswerTimes } from '#harness/core/answerTimes.ts';
import type { LimitChange } from '#harness/core/limitChange.ts';

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
    /** --only: the check-id patterns (substring, or glob with `*`) that selected the checks. */
    only?: string[];
    /** --skip: the check-id patterns left out. */
    skip?: string[];
    /** --clients: the pinned clients whose `client.*` checks ran. */
    clients?: string[];
    /** --clients-gate (only when given): a failing client check fails the run as a must would. */
    clientsGate?: boolean;
    /**
     * --baseline FILE: the verdicts its record of this cell (same target and model) gave, by check
     * id. The gate (gate.ts) fails the run only on a regression from them.
     */
    baseline?: { source: string; verdicts: Record<string, Verdict> };
    /** --known FILE (svc-conformance.known.yaml): the entries about this cell (results/known.ts). */
    known?: KnownPolicy;
    shard?: string;
    runs: number;
    /** --coverage N (only when given): classes of invalid request the coverage phase sent at most, per operation and model. */
    coverage?: number;
    /** --load N (only when given): the load phase's N, requests in flight at its peak (a shard drove its share of it). */
    load?: number;
    seed: number;
    /** --without: features left out of the run; their checks are skipped, out of scope. */
    without?: string[];
    /** --repeat N (only when N > 1): each check ran N times, its results merged (mergeRepetitions.ts). */
    repeat?: number;
    /** --allow-flaky (only when given): a flaky check does not fail the run. */
    allowFlaky?: boolean;
  };
  results: CheckResult[];
  summary: Summary;
  usage: UsageTotals;
  /** True when the run was stopped (SIGINT) before every check ran. */
  interrupted: boolean;
  /** What interrupted it: a signal (SIGTERM exits 143, SIGINT 130), or the run's time ceiling (`ceiling`, 130). */
  interruptedBy?: 'SIGINT' | 'SIGTERM' | 'ceiling';
  /**
   * Set when the harness itself ended the run early on what the endpoint answered, e.g. every
   * authenticated request refused with 401 (`key-refused`): `message` is the one line that says so
   * and what to check. The checks not sent are skipped `blocked`; the gate fails such a run.
   */
  endedEarly?: { kind: 'key-refused'; message: string };
  /**
   * Set when the base URL given ends in what the harness adds to it itself (runner/wrongBase.ts): a
   * base of the spec (`ending` `/v1`, kind `base`) or a route (`/chat/completions`, kind `route`),
   * and the routes derived from it are not served as that makes them. `checks`: the served checks
   * whose failures it caused (reported as its doing, one cause); `tryBaseUrl`: the base URL to try;
   * `message`: the one line that says so. The gate fails such a run (exit 1) and every report leads
   * with it: the endpoint was not judged where the description places it.
   */
  wrongBase?: { ending: string; kind: 'base' | 'route'; tryBaseUrl: string; checks: string[]; message: string };
  /** The cell's score, 0..100 (score.ts; known failures left out); absent when nothing was scored. */
  score?: number;
  /** How many of the catalogue's spec entries the cell judged (coverage.ts). */
  coverage?: { covered: number; total: number; percent: number; notJudged?: Partial<Record<SkipKind | 'unsupported' | 'error', number>> };
  /**
   * What the outcome rests on (the must-checks, else every check), how much of it was judged, the
   * rest by kind and the leading reasons for it (judging.ts); absent in records written before it.
   */
  judging?: Judging;
  /** --budget-usd: the limit and whether the spend reached it (checks not run are skipped for budget). */
  budget?: RunBudget;
  /** The cost estimate made before the run (live runs, and runs with --budget-usd). */
  estimate?: CostEstimate;
  /** Where the whole run's time went (the same in every cell of one run). */
  timings?: RunTimings;
  /**
   * What went over the wire for this record's target: its whole run, all models together (the
   * same in every cell of one target), not this model's share.
   */
  traffic?: RunTraffic;
  /** The failures and errors of `results` grouped by cause (causes.ts). */
  causes?: Cause[];
  /**
   * The load phase on this model (`--load N`), as figures per step of requests in flight
   * (loadFigures.ts): information beside the verdicts, never a verdict. Absent without a load phase,
   * and in records written before it.
   */
  load?: LoadFigures;
}

export interface RunBudget {
  limitUsd: string;
  reached: boolean;
}

export interface CostEstimate {
  /** How it was made: from the plan and each check's measured cost (plan-profile), or the plan run once against the embedded emulator (emulator-dry-run). */
  method: 'emulator-dry-run' | 'plan-profile';
  requests: number;
  /** Tokens the emulator's answers reported, at the spec's prices: what the run should cost. */
  expected: { promptTokens: number; completionTokens: number; costUsd: string };
  /** Every request's body bytes as prompt tokens and its max_tokens (x n) as output, all at cache-miss prices. */
  upperBound: { promptTokens: number; completionTokens: number; costUsd: string; uncappedRequests: number };
}

/** Milliseconds. startup + requests + judging + reporting + other = wall. */
export interface RunTimings {
  wallMs: number;
  /** Process start to the first check: module load, spec, target, reference time, estimate, vitest start. */
  startupMs: number;
  /** While checks ran, the time at least one request was in flight. */
  requestsMs: number;
  /** While checks ran, the rest: judging answers, generating cases, the runner's own work. */
  judgingMs: number;
  /** Writing report files. */
  reportingMs: number;
  /** The remainder: vitest shutdown, closing targets. */
  otherMs: number;
  checks: number;
  checksPerSecond: number;
}

/** One target's run on the wire. */
export interface RunTraffic {
  /** HTTP requests sent: every attempt, retries and the served-route probes included. */
  requests: number;
  /** Of those, the attempts that asked again (a 5xx, a 429 waited out). */
  retries: number;
  concurrency: RunConcurrency;
  /** How long each kind of answer took to its headers (core/answerTimes.ts): information, never a verdict. */
  answerTimes?: AnswerTimes;
  /** A gateway run (--upstream-port): the traffic as the harness's upstream saw it. */
  upstream?: UpstreamTraffic;
}

/** What a gateway sent its upstream for the harness's requests (runner/upstreamTraffic.ts). */
export interface UpstreamTraffic {
  /** Client requests that carried a marker (every request with a message or prompt). */
  marked: number;
  /** Requests the upstream received, and of those, the ones paired with a client request. */
  requests: number;
  paired: number;
  /** How many client requests caused 0, 1, 2, ... upstream requests, by that number. */
  perClientRequest: Record<string, number>;
  /** Each client model and the model the upstream was asked for. */
  models: Record<string, string>;
}

/**
 * The concurrency limit over the run, as the transport's ConcurrencyStats has it
 * (transport/adaptiveLimit.ts), declared here because results/ does not import transport/.
 */
export interface RunConcurrency {
  /** The limit the run started at. */
  initial: number;
  /** The most it could grow to; equal to `initial` when fixed (`--concurrency N`). */
  max: number;
  adaptive: boolean;
  /** The most requests in flight at once that the endpoint took without a 429 or 503. */
  reached: number;
  /** The limit when the run ended. */
  final: number;
  /** Times the limit came down. */
  decreases: number;
  /** The highest the limit went (absent from reports written before the limit climbed past 16). */
  highest?: number;
  /** Where the limit went and why, in order (core/limitChange.ts, decided by transport/adaptiveLimit.ts; absent from older reports). */
  changes?: LimitChange[];
  /** Changes past those kept. */
  changesOmitted?: number;
}

/** Counts per verdict (`flaky` is absent from reports written before --repeat; parseRunRecord reads it as 0). */
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
  /**
   * `judging`: what the cell's outcome rests on and why the rest was not judged, as the gate counted
   * it; `traffic`: the cell's target's, as its record has it (all models of the target together).
   */
  cells: { baseUrl: string; model: string; report: string; outcome: Outcome; reason: string; judging?: Judging; summary: Summary; usage: UsageTotals; traffic?: RunTraffic }[];
  totals: Summary;
  /** The gate's decision (gate.ts), the same the process exit code, every headline and the JUnit carry. */
  outcome: Outcome;
  /** Why, in one sentence. */
  reason: string;
  exitCode: ExitCode;
  /** True when SIGINT/SIGTERM stopped the run: the reports are partial. */
  interrupted?: boolean;
  budget?: RunBudget;
  estimate?: CostEstimate;
  timings?: RunTimings;
  /** The failures and errors of every cell grouped by cause. */
  causes?: Cause[];
}

/**
 * The run's outcome, most telling first:
 * - `interrupted`: SIGINT, SIGTERM or its time ceiling stopped it (exit 130, 143 for SIGTERM): the reports are partial, never PASS;
 * - `fail`: a result fails the run, or the harness ended it early (the key was refused) (exit 1);
 * - `nothing-judged`: a cell in which no must-check was judged, pass or fail (every one skipped,
 *   blocked, not recorded, unsupported or errored below the gate); with no must-check in the
 *   selection, no check at all judged (exit 1): a PASS has to be earned;
 * - `pass` (exit 0).
 */
export type Outcome = 'pass' | 'fail' | 'interrupted' | 'nothing-judged';

export type ExitCode = 0 | 1 | 130 | 143;

/**
 * One entry of a known-failures file (svc-conformance.known.yaml): a check that fails today for a
 * reason the team knows. Where it came from (file and line) travels with it, so every message can
 * point back at it.
 */
export interface KnownEntry {
  /** A check id, or a glob of ids with `*`. */
  check: string;
  /** Only on this model (the spec's id), or every model. */
  model?: string;
  /** Only at this base URL, or every target. */
  baseUrl?: string;
  reason: string;
  /** YYYY-MM-DD: past it the entry no longer excuses anything (it fails the run, saying so). */
  until?: string;
  link?: string;
  /** The causes it is known for (Failure.key, as `init-known` writes them); none: any failure of the check. */
  causes?: string[];
  /** A flaky check's expected pass rate (0..1, over `--repeat N`): it fails the run only when the rate seen is significantly below. */
  passRate?: number;
  /** Where it is written: `file:line`. */
  at: string;
  /** Set on a cell's copy when its `until` was before the run (withKnown). */
  expired?: true;
}

/** The known failures of one cell, as its record carries them (the gate reads them there). */
export interface KnownPolicy {
  /** The file, as the user gave it. */
  source: string;
  entries: KnownEntry[];
  /** --strict-known: a stale entry (its check passes now) fails the run. */
  strict?: boolean;
}
