import type { Exchange } from './exchange.ts';

/**
 * A check's verdict. `unsupported`: the endpoint refuses the feature cleanly (a well-formed error),
 * so nothing can be judged; `error`: the harness could not judge (a HarnessError, not the endpoint);
 * `flaky`: a repeated run (`run --repeat N`) saw the check both pass and fail.
 */
export type Verdict = 'pass' | 'fail' | 'flaky' | 'skip' | 'unsupported' | 'error';

/**
 * Why a check was skipped, typed so that the gate and every report count skips alike (never by
 * reading a reason's words):
 * - `inconclusive`: a premise failed on the same exchange or its control, so nothing could be judged;
 * - `blocked`: the request goes to an endpoint (or route) the target does not serve, or to one
 *   declared unresponsive; the served check reports it once;
 * - `out-of-scope`: the run leaves the feature out (`--without`);
 * - `budget`: the spend reached `--budget-usd` before it was sent;
 * - `interrupted`: SIGINT or SIGTERM stopped the run before it ran;
 * - `not-recorded`: a replay holds no recording that answers it;
 * - `not-applicable`: the check does not apply here (a profile that is off, a model already retired).
 */
export type SkipKind = 'inconclusive' | 'blocked' | 'out-of-scope' | 'budget' | 'interrupted' | 'not-recorded' | 'not-applicable';

export const SKIP_KINDS: readonly SkipKind[] = ['inconclusive', 'blocked', 'out-of-scope', 'budget', 'interrupted', 'not-recorded', 'not-applicable'];

/** How a failing check counts: `advisory` is what the description leaves unspecified. */
export type Severity = 'must' | 'should' | 'advisory';

export interface Reproducer {
  /** A curl command; the key is `$SVC_API_KEY` (or the configured variable), never its value. */
  curl: string;
  /** fast-check seed and path of a property failure. */
  seed?: number;
  path?: string;
  /** Recorded fixture the exchange was replayed from. */
  fixture?: string;
  /**
   * A client check's failure: a TypeScript program sending the same request through the client that
   * broke, its key read from the run's variable (checks/client/clientCheck.ts).
   */
  client?: string;
}

/**
 * What a failure shows, typed with that kind's facts: keys, causes and their headlines are computed
 * from these (results/causes.ts), never read back out of the message. `what` is the defect in its own
 * words, without the check's statement or the context (URL, shrinking, a client's own words) that
 * the message adds around it.
 * - `schema`: a body breaks its schema (or the error envelope's) at `path`, by ajv's `keyword`;
 * - `status`: the endpoint answered `got` where the rule gives `expected` ("400 or 422", "2xx"); `sent`:
 *   the class of request it answered, when a check sends many (`type messages string`): each its own cause;
 * - `value`: a value the rule judges is wrong (at `path`, when it is about one place);
 * - `transport`: no complete answer came back (`code`, a HARNESS_ code);
 * - `client`: a client library broke on the answer;
 * - `changed`: a gateway passed on at `path` (dotted) other than the upstream sent or was sent:
 *   `dropped`, `replaced` or `added`, each side's value as JSON text when it has one;
 * - `wait`: an answer (`status`: a 429 or 503, or a 5xx asked again) whose Retry-After asked for a
 *   longer wait than the description's back-off cap (`askedMs` > `capMs`): not waited out, the
 *   request was refused.
 */
export type Defect =
  | { kind: 'schema'; path: string; keyword: string; what: string }
  | { kind: 'status'; expected: string; got: number; sent?: string }
  | { kind: 'value'; what: string; path?: string }
  | { kind: 'transport'; code: string; what: string }
  | { kind: 'client'; client: string; version: string; what: string }
  | { kind: 'changed'; path: string; change: 'dropped' | 'replaced' | 'added'; atClient?: string; atUpstream?: string; what: string }
  | { kind: 'wait'; status: number; askedMs: number; capMs: number; what: string };

export interface Failure {
  message: string;
  /** Its kind and facts; absent only in records written before it existed (then it is a `value` of the message). */
  defect?: Defect;
  /**
   * The check that judges this defect, when another does (a hand-off: the answer's shape is the
   * schema check's, a parameter's acceptance its bounded field's): where that check fails too, this
   * result is made inconclusive, naming it, one defect being one failure (runner/handoff.ts); where
   * it does not, this failure is the only report of the defect and stands, at this check's severity.
   */
  ownedBy?: string;
  /**
   * Where the owner must have failed for the hand-off to stand: `answer`, on this failure's answer
   * (the same request) or with the same defect (its cause key) on the same model; `run`, anywhere in
   * the run (a route not served: its served check runs on one model); absent, anywhere on the same
   * model (a parameter's acceptance, judged on the owner's own requests).
   */
  ownedOn?: 'answer' | 'run';
  /** Stable across runs: the check, the kind of cause and where (results/failureKey.ts). */
  key?: string;
  /**
   * What the answer in `evidence` says when it is a success (2xx) whose body is the error envelope:
   * a refusal sent as a success. Set by the runner (runner/execute.ts); its message and every cause
   * text of it (results/causes.ts) name it so, never as the completion it is not.
   */
  errorEnvelope?: string;
  /** JSON pointer into the judged body, when the failure is about one place. */
  path?: string;
  /** The spec entry broken, e.g. `objects.chat_completion.fields.usage`. */
  specRef?: string;
  evidence?: Exchange;
  /**
   * An exchange the message compares `evidence` with (the same request to a path that does not
   * exist): evidence of the one failure, not a failure of its own, so it is never a cause.
   */
  comparison?: Exchange;
  reproducer?: Reproducer;
}

export interface TokenUse {
  promptTokens: number;
  completionTokens: number;
  cacheHitTokens: number;
}

/**
 * How a check fared over the repetitions of `run --repeat N` (N > 1). Only pass and fail are
 * decisive: `passes` + `fails` can be less than `runs` when a repetition skipped or errored. The
 * estimators are over the decisive runs n with c passes, for k = 1..n: pass@k = 1 - C(n-c,k)/C(n,k)
 * (at least one of k runs passes), pass^k = C(c,k)/C(n,k) (all k pass), keyed by k as a string.
 */
export interface RepeatStats {
  runs: number;
  passes: number;
  fails: number;
  passAtK: Record<string, number>;
  passHatK: Record<string, number>;
}

/**
 * Why the harness could not judge: `code` and `what` are the root (for a request not sent, or
 * abandoned, because its route or the endpoint was declared unresponsive, the silence that declared
 * it); `declared`, when that was why: the route declared (`endpoint` for the whole endpoint) and on
 * what grounds.
 */
export interface ErrorCause {
  code: string;
  what: string;
  declared?: { route: string; grounds: string };
}

/** What every result carries, whatever its verdict; which of it a verdict requires, CheckResult says. */
export interface ResultHead {
  checkId: string;
  title: string;
  area: string;
  severity: Severity;
  /** Why the check has its severity (`stated`, `entailed from “…”`, `advised`, `unspecified`). */
  basis?: string;
  specRefs: string[];
  model: string;
  durationMs: number;
  tokens?: TokenUse;
  /** Set when its requests were retried: how many it sent, and the HTTP attempts they took in all. */
  attempts?: { requests: number; attempts: number };
  /** A repeated run (--repeat N, N > 1): the verdict merged over N runs, and how they went. */
  repeat?: RepeatStats;
  /** What the check judged: the endpoint's answers it read (its own, shared ones, the served probe's). */
  judged?: Judged;
  /** Why it was skipped, unsupported or errored; for flaky, how many runs passed; a pass's note. */
  reason?: string;
}

/** The fields only some verdicts carry: each result type names those it has, and has none of the rest. */
export interface VerdictFields {
  /** A skip's kind (SkipKind); reports written before it had one are read by skipKindOf. */
  skipKind: SkipKind;
  /** An error's cause, typed: what counts it, what is advised (never read back out of `reason`). */
  cause: ErrorCause;
  /** A fail's failures; a flaky check's, those of its failing runs. */
  failures: Failure[];
  /**
   * A skip (inconclusive, blocked) left to the checks that judge its defect, as data: each check and
   * the answer it was seen on (`METHOD url`) or none for a route-level block. It stands only where
   * each of them failed (runner/handoff.ts); otherwise the result is this check's own failure.
   */
  handedTo: HandedTo[];
}

/** None of these fields: what a verdict cannot carry, so a result made from another keeps none of its own. */
type Without<K extends keyof VerdictFields> = { [F in K]?: never };

/**
 * The result of one check on one model of one target: its type says what its verdict carries. A
 * pass always says what it judged; a fail carries at least one failure; a skip its kind and why;
 * an error its cause; a flaky check its runs.
 */
export type CheckResult = PassResult | FailResult | SkipResult | ErrorResult | FlakyResult | UnsupportedResult;
export type PassResult = ResultHead & { verdict: 'pass'; judged: Judged } & Without<'skipKind' | 'cause' | 'failures' | 'handedTo'>;
export type FailResult = ResultHead & { verdict: 'fail'; failures: [Failure, ...Failure[]] } & Without<'skipKind' | 'cause' | 'handedTo'>;
export type SkipResult = ResultHead & { verdict: 'skip'; skipKind: SkipKind; reason: string; handedTo?: HandedTo[] } & Without<'cause' | 'failures'>;
export type ErrorResult = ResultHead & { verdict: 'error'; cause: ErrorCause; reason: string } & Without<'skipKind' | 'failures' | 'handedTo'>;
export type FlakyResult = ResultHead & { verdict: 'flaky'; repeat: RepeatStats; reason: string; failures?: Failure[] } & Without<'skipKind' | 'cause' | 'handedTo'>;
export type UnsupportedResult = ResultHead & { verdict: 'unsupported'; reason: string } & Without<'skipKind' | 'cause' | 'failures' | 'handedTo'>;

/** What a result carries whatever its verdict: the start of a result of another verdict made from it. */
export function headOf(r: CheckResult): ResultHead {
  const { verdict: _verdict, skipKind: _skipKind, cause: _cause, failures: _failures, handedTo: _handedTo, ...head } = r;
  return head;
}

/** Whether a list holds at least one item: what a fail's failures must (FailResult). */
export function isNonEmpty<T>(xs: readonly T[]): xs is [T, ...T[]] {
  return xs.length > 0;
}

/** One check a result's defect was handed to (CheckResult.handedTo). */
export interface HandedTo {
  check: string;
  /** The request whose answer showed it (`POST https://…/chat/completions`), when it was one answer. */
  request?: string;
  /** The handed defect in its own words (results/causes.ts headlineOf): what reports group not-judged results by. */
  defect?: string;
}

/** The evidence a verdict rests on. */
export interface Judged {
  /** Answers of the endpoint read (a response came back), whoever sent the request. */
  exchanges: number;
  /** Stream chunks in those answers (data events; comments and the `[DONE]` sentinel are not chunks), when any was a stream. */
  chunks?: number;
  /** Cases the check put to the endpoint (a property's values, a rule's sets of conditions), when it has cases. */
  cases?: number;
  /** Cases the check met and could not judge (answers it could not tell apart), when it counts them: never part of `cases`. */
  notJudged?: number;
  /** Classes of invalid request the spec names, and which were sent (the coverage phase). */
  classes?: ClassCoverage;
}

/** An operation's classes of invalid request (checks/property/invalidClasses.ts): named, sent, sent elsewhere, not sent. */
export interface ClassCoverage {
  operation: string;
  /** Classes the spec names for the model. */
  named: number;
  /** Sent by this check. */
  sent: number;
  /** Sent by the checks that own them (a rule's check, a bound's), by check. */
  elsewhere: { check: string; classes: string[] }[];
  /** Named and not sent, each with why (the run's cap, not breakable alone for the model, at most advisory). */
  notSent: { class: string; why: string }[];
}
