import { isHarnessError } from '#harness/core/errors/index.ts';
import { curlOf } from '#harness/core/curl.ts';
import { isNotCaptured } from '#harness/core/notCaptured.ts';
import { isBlocked } from '#harness/core/blocked.ts';
import { isTransportError } from '#harness/transport/index.ts';
import type { Exchange } from '#harness/core/exchange.ts';
import { isNonEmpty, type CheckResult, type ClassCoverage, type ErrorCause, type Failure, type Judged, type TokenUse } from '#harness/core/outcome.ts';
import { NO_TOKENS, spentOf } from '#harness/core/tokens.ts';
import { waitDefect } from '#harness/core/waitDefect.ts';
import type { Check, CheckContext } from '#harness/checks/index.ts';
import { basisText } from '#harness/spec/basis.ts';
import { failureKey } from '#harness/results/failureKey.ts';
import { errorEnvelopeWords } from '#harness/results/causes.ts';
import { errorEnvelopeSaid, jsonOf } from '#harness/checks/support/errorEnvelope.ts';
import { isBudgetReached } from './spend/BudgetReachedError.ts';

/**
 * Runs one check and turns whatever happens into a result: a HarnessError (the harness could not
 * judge: unreachable target, timeout) is `error`; so is an exception of the check itself, since a
 * bug of the harness says nothing about the endpoint. A request a capture-built fixture set holds no
 * capture for is a skip: the endpoint was never asked. Nothing escapes: the report is always written.
 * `tracked` is asked once the check has ended: the tokens its answers reported, and the answers it
 * read (runner/checkTracker.ts). A pass rests on them: one that read no answer of the endpoint
 * judged nothing, and is inconclusive instead.
 */
export async function executeCheck(check: Check, ctx: CheckContext, tracked: Tracked, keyVariable = 'SVC_API_KEY', headerVariables: Record<string, string> = {}): Promise<CheckResult> {
  const started = performance.now();
  const base = resultHead(check, ctx.model);
  const done = (cases?: number, classes?: ClassCoverage, notJudged?: number) => {
    const durationMs = Math.round(performance.now() - started);
    const tokens = tracked.settle();
    const judged = judgedOf(tracked.judged(), cases, classes, notJudged);
    return { durationMs, ...spentOf(tokens), ...(judged ? { judged } : {}) };
  };
  /** A failure as the result reports it: named for what its answer is, with its curl reproducer and its stable key. */
  const reported = (f: Failure): Failure => {
    const n = check.phase === 'load' ? f : namedErrorEnvelope(f, ctx);
    return { ...withReproducer(n, keyVariable, headerVariables), key: failureKey(check.id, n) };
  };
  try {
    const outcome = await check.run(ctx);
    switch (outcome.verdict) {
      case 'pass': {
        const { judged, ...seen } = done(outcome.cases, outcome.classes, outcome.notJudged);
        // A pass over nothing cannot be made: the type holds it too (PassResult.judged).
        if (judged === undefined) return { ...base, verdict: 'skip', skipKind: 'inconclusive', reason: JUDGED_NOTHING, ...seen };
        return { ...base, verdict: 'pass', ...(outcome.note ? { reason: outcome.note } : {}), ...seen, judged };
      }
      case 'fail': {
        // A failure shown by a "not now" (429, 503) given on every try is no evidence: the request was never judged.
        // A gateway check's are: it judges them against what its upstream answered (on purpose, too).
        // So are the load phase's: under load a 429 or 503 is the evidence it judges.
        const notNow = check.upstream === true || check.phase === 'load' ? [] : ctx.spec.errors.retry.statuses;
        const judged = outcome.failures.filter((f) => !answeredNotNow(f, notNow)).map(reported);
        if (!isNonEmpty(judged)) return { ...base, verdict: 'skip', skipKind: 'inconclusive', reason: notNowReason(outcome.failures[0]!.evidence!), ...done() };
        return { ...base, verdict: 'fail', failures: judged, ...done(undefined, outcome.classes) };
      }
      case 'skip':
        return { ...base, verdict: 'skip', skipKind: outcome.kind, reason: outcome.reason, ...done() };
      default:
        return { ...base, verdict: outcome.verdict, reason: outcome.reason, ...done() };
    }
  } catch (err) {
    if (isNotCaptured(err)) return { ...base, verdict: 'skip', skipKind: 'not-recorded', reason: err.message, ...done() };
    if (isBlocked(err)) {
      const by = err.by;
      if (by === undefined) return { ...base, verdict: 'skip', skipKind: err.kind, reason: err.message, ...done() };
      // "Not now" on every try shows nothing either way: the served check errors for it, and this one stays blocked.
      if (by.unavailable) return { ...base, verdict: 'skip', skipKind: 'blocked', reason: err.message, handedTo: [{ check: by.check }], ...done() };
      // Left to the served check, settled once every check has ended (runner/handoff.ts): blocked where it failed, else this check's failure.
      const handed: Failure = { message: err.message, ownedBy: by.check, ownedOn: 'run', ...(by.evidence ? { evidence: by.evidence, defect: { kind: 'value', what: err.message } } : {}) };
      return { ...base, verdict: 'fail', failures: [reported(handed)], ...done() };
    }
    // The answer it read was shared, and the check that asked first was refused by the budget: this one judged nothing either.
    if (isBudgetReached(err)) return { ...base, verdict: 'skip', skipKind: 'budget', reason: err.message, ...done() };
    // A "not now" asking for a wait beyond the description's cap was not waited out: the request was refused, and that is the failure.
    if (isTransportError(err) && err.code === 'HARNESS_WAIT_REFUSED' && err.exchange.beyondCap) return { ...base, verdict: 'fail', failures: [reported(refusedBeyondCap(err.exchange))], ...done() };
    // Stopped by the user, not by the endpoint: the check judged nothing.
    if (isTransportError(err) && err.code === 'HARNESS_INTERRUPTED') return { ...base, verdict: 'skip', skipKind: 'interrupted', reason: `interrupted: ${err.message}`, ...done() };
    const reason = isHarnessError(err) ? `${err.code}: ${err.message}` : `the check threw: ${(err as Error).stack?.split('\n').slice(0, 3).join(' | ') ?? String(err)}`;
    return { ...base, verdict: 'error', reason, cause: errorCause(err), ...done() };
  }
}

/**
 * A failure whose answer is a success (2xx) whose body is the error envelope, named as the refusal
 * it is (`errorEnvelope`, and its message led by it), whatever the check made of it: "expected HTTP
 * 400, got 200" or "/: missing required field `id`" alone would hide what the evidence shows. The
 * load checks name theirs themselves (load/drive.ts classifies every answer under load).
 */
function namedErrorEnvelope(f: Failure, ctx: CheckContext): Failure {
  const res = f.evidence?.response;
  if (f.errorEnvelope !== undefined || res === undefined || res.status < 200 || res.status >= 300) return f;
  const said = errorEnvelopeSaid((o, b) => ctx.judge(o, b), res.body ?? jsonOf(res.text));
  if (said === undefined) return f;
  const named = { ...f, errorEnvelope: said };
  return { ...named, message: `${errorEnvelopeWords(named)}${f.message}` };
}

/**
 * An error's cause, typed: a request not sent (or abandoned) for a declaration is the silence that
 * declared it; a transport failure its code and what happened, without where; a harness error its
 * code; a bug of the check is the check's own.
 */
function errorCause(err: unknown): ErrorCause {
  if (isTransportError(err)) {
    const d = err.declaration;
    return d ? { code: d.root.code, what: d.root.what, declared: { route: d.declared, grounds: d.grounds } } : { code: err.code, what: err.what };
  }
  if (isHarnessError(err)) return { code: err.code, what: err.message };
  return { code: 'CHECK_THREW', what: (err as Error).stack?.split('\n').slice(0, 3).join(' | ') ?? String(err) };
}

/** What the answers a check read hold: how many, their stream chunks, and the cases it put; undefined for none. */
function judgedOf(answers: readonly Exchange[], cases: number | undefined, classes: ClassCoverage | undefined, notJudged?: number): Judged | undefined {
  if (answers.length === 0) return undefined;
  const chunks = answers.reduce((n, e) => n + (e.response?.events?.filter((ev) => !ev.data.startsWith(':') && ev.data !== '[DONE]').length ?? 0), 0);
  return { exchanges: answers.length, ...(chunks > 0 ? { chunks } : {}), ...(cases === undefined ? {} : { cases }), ...(notJudged ? { notJudged } : {}), ...(classes === undefined ? {} : { classes }) };
}

/** What a check's run left for the runner: its tokens (read once it ended) and the endpoint's answers it read. */
export interface Tracked {
  settle(): TokenUse;
  judged(): readonly Exchange[];
}

/** Nothing tracked: a check judged alone, outside a run (it can skip or fail, never pass). */
export const UNTRACKED: Tracked = { settle: () => NO_TOKENS, judged: () => [] };

export const JUDGED_NOTHING = 'inconclusive: the check read no answer of the endpoint, so its pass would rest on nothing';

/** Whether the failure's evidence is an answer the retry guidance says to wait out, given on every try it allows. */
function answeredNotNow(f: Failure, statuses: readonly number[]): boolean {
  const status = f.evidence?.response?.status;
  return status !== undefined && statuses.includes(status);
}

/** A "not now" whose Retry-After the guidance does not wait out (beyond its cap), as the refusal it is: the wait asked and the cap, typed. */
function refusedBeyondCap(evidence: Exchange): Failure {
  const { askedMs, capMs } = evidence.beyondCap!;
  const defect = waitDefect(evidence.response?.status ?? 0, askedMs, capMs);
  return { message: `${evidence.request.method} ${new URL(evidence.request.url).pathname} was refused: ${defect.what}, so it was not asked again`, defect, evidence };
}

function notNowReason(evidence: Exchange): string {
  const { status, headers } = evidence.response!;
  const after = headers['retry-after'];
  return `inconclusive: ${evidence.request.method} ${new URL(evidence.request.url).pathname} was answered HTTP ${status} ("not now") on each of its ${evidence.attempts} attempts${after === undefined ? '' : ` (Retry-After: ${after})`}, so the rule was never put to it`;
}

/** What every result of `check` on `model` starts with, whatever its verdict (a check that ran, or one that did not). */
export function resultHead(check: Check, model: string): Pick<CheckResult, 'checkId' | 'title' | 'area' | 'severity' | 'basis' | 'specRefs' | 'model'> {
  return { checkId: check.id, title: check.title, area: check.area, severity: check.severity, basis: basisText(check.basis), specRefs: check.specRefs, model };
}

/** A curl command replaying the failure's request; it reads the key from the run's variable. */
function withReproducer(f: Failure, keyVariable: string, headerVariables: Record<string, string>): Failure {
  if (!f.evidence) return f;
  return { ...f, reproducer: { ...(f.reproducer ?? {}), curl: curlOf(f.evidence.request, keyVariable, headerVariables) } };
}
