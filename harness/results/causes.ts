import type { CheckResult, Failure, Severity } from '#harness/core/outcome.ts';

/** One distinct cause of failures: what it says, how it counts, which checks and models it affected. */
export interface Cause {
  message: string;
  severity: Severity;
  /** Failures (and errors) that share this cause. */
  failures: number;
  affected: { checkId: string; model: string }[];
}

const RANK: Record<Severity, number> = { must: 0, should: 1, advisory: 2 };

/** An array index in a JSON pointer (`/choices/0/...`): folded to `*`, the same place in every element. */
export const ARRAY_INDEX = /\/\d+(?=\/|:|\s|$)/g;

/**
 * What makes two failures one cause: the same violation at the same place, the same status
 * mismatch, the same transport failure, the same defect of the error envelope whatever the status
 * it came with, whichever check saw it. The check's own statement before a
 * status mismatch, the context after a dash (URL, shrinking), chunk indices in a path and counts in a sentence
 * are not part of it; a status (a 3-digit number from 100 to 599) is.
 */
export function causeKey(message: string): string {
  // Clients broken the same way by the same kind of answer are one cause, whichever client said it.
  const client = clientFailure(message);
  if (client) return `breaks a client: ${causeKey(client.what)}`;
  return defectOf(message)
    .replace(ARRAY_INDEX, '/*')
    .replace(/\b(?!(?:[1-5]\d\d)\b)\d+(\.\d+)?\b/g, 'N')
    .trim();
}

/**
 * The defect a failure message states, without what is particular to the check that saw it: the
 * context after a dash, the check's own statement before a status mismatch or an envelope defect.
 * What a cause is headed with once checks of different statements share it.
 */
export function defectOf(message: string): string {
  // What follows a dash is context (the URL, how a counterexample was shrunk), not the defect.
  let m = message.split(' — ')[0]!;
  // An envelope defect is one cause whatever the refusal's status, and the same as the schema check's finding.
  const envelope = /the envelope is not well-formed: (.*)$/.exec(m);
  if (envelope) m = envelope[1]!;
  const mismatch = /: ((?:streamed: )?(?:expected HTTP|refused with \d{3}|a valid request to) .*)$/.exec(m);
  if (mismatch) m = mismatch[1]!;
  return m.replace(/^(the completion|the stream|streamed): /, '').replace(/^case \d+ of \d+: /, '');
}

/**
 * A client check's failure, `breaks <client>@<version>: <what>` (checks/client/clientCheck.ts), or a
 * cause of several, `breaks a@1, b@2 and c@3: <what>`: the clients, and what the answer did to them
 * (the client's own words follow a dash, as context).
 */
const CLIENT_FAILURE = /^breaks ([\w-]+@[\w.-]+(?:(?:, | and )[\w-]+@[\w.-]+)*): ([\s\S]*)$/;

export function clientFailure(message: string): { clients: string[]; what: string } | undefined {
  const m = CLIENT_FAILURE.exec(message);
  return m ? { clients: m[1]!.split(/, | and /), what: m[2]! } : undefined;
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: readonly string[]): string => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The headline of a cause `message` joins: every client it breaks, and the defect they share (their own words differ). */
function joinedHeadline(headline: string, message: string): string {
  const [a, b] = [clientFailure(headline), clientFailure(message)];
  if (!a || !b) return defectOf(headline);
  const clients = [...new Set([...a.clients, ...b.clients])];
  return `breaks ${listed(clients)}: ${a.what === b.what ? a.what : defectOf(a.what)}`;
}

/**
 * The root of an error's reason: the innermost harness error it cites, up to its context. A request
 * not sent because the endpoint was declared unresponsive, or abandoned when it was, cites the
 * error that declared it: all of them are that one cause (a dead port is one ECONNREFUSED, not three).
 */
export function rootOfError(reason: string): string {
  const at = reason.lastIndexOf('HARNESS_');
  if (at < 0) return reason;
  let depth = 0;
  let end = reason.length;
  for (let i = at; i < reason.length; i++) {
    const c = reason[i];
    if (c === '(') depth += 1;
    else if (c === ')' && --depth < 0) {
      end = i;
      break;
    }
  }
  return reason.slice(at, end).split(' — ')[0]!;
}

/** The messages a result counts under: each failure's (a flaky check's failing runs too), or the root of an error's reason. */
function messagesOf(r: CheckResult): string[] {
  if (r.verdict === 'fail' || r.verdict === 'flaky') return (r.failures ?? []).map((f) => f.message);
  if (r.verdict === 'error') return [rootOfError(r.reason ?? 'the check could not be judged')];
  return [];
}

/**
 * Failures and errors grouped by cause, most severe first, then the most widespread: a report leads
 * with "30 failures from 6 causes" instead of the same sentence 22 times.
 */
export function causesOf(results: readonly CheckResult[]): Cause[] {
  const byKey = new Map<string, Cause>();
  for (const r of results) {
    for (const message of messagesOf(r)) {
      const key = causeKey(message);
      const cause = byKey.get(key) ?? { message, severity: r.severity, failures: 0, affected: [] };
      // Checks of different statements share the defect: the headline is the defect, not the first one's statement.
      if (cause.failures > 0 && cause.message !== message && cause.message.split(' — ')[0] !== message.split(' — ')[0]) cause.message = joinedHeadline(cause.message, message);
      cause.failures += 1;
      if (RANK[r.severity] < RANK[cause.severity]) cause.severity = r.severity;
      if (!cause.affected.some((a) => a.checkId === r.checkId && a.model === r.model)) cause.affected.push({ checkId: r.checkId, model: r.model });
      byKey.set(key, cause);
    }
  }
  return [...byKey.values()].sort((a, b) => RANK[a.severity] - RANK[b.severity] || b.affected.length - a.affected.length || a.message.localeCompare(b.message));
}

/** The first failure of `results` with this cause, for its evidence. */
export function firstFailureOf(cause: Cause, results: readonly CheckResult[]): Failure | undefined {
  const key = causeKey(cause.message);
  for (const r of results) for (const f of r.failures ?? []) if (causeKey(f.message) === key) return f;
  return undefined;
}
