import { UNRECORDED_CAUSE } from './upgradeResult.ts';
import type { CheckResult, Defect, Failure, Severity } from '#harness/core/outcome.ts';

/**
 * One distinct cause of failures: what it says, how it counts, which checks and models it affected.
 * `message`: the first failure's words, or once failures of different statements share the cause,
 * the defect they share; `headline`: the defect alone, one line (the index page's list).
 */
export interface Cause {
  /** What groups its failures (causeKey): the same across runs. */
  key: string;
  message: string;
  headline: string;
  /** The HARNESS_ code an error cause (no answer) was, for what to advise (cli/hints.ts). */
  code?: string;
  severity: Severity;
  /** Failures (and errors) that share this cause. */
  failures: number;
  affected: { checkId: string; model: string }[];
}

const RANK: Record<Severity, number> = { must: 0, should: 1, advisory: 2 };

/** An array index in a JSON pointer (`/choices/0/...`): folded to `*`, the same place in every element. */
export const ARRAY_INDEX = /\/\d+(?=\/|:|\s|$)/g;

/** Counts folded: a status (a 3-digit number from 100 to 599) stays, any other number is N. */
export const folded = (text: string): string => text.replace(ARRAY_INDEX, '/*').replace(/\b(?!(?:[1-5]\d\d)\b)\d+(\.\d+)?\b/g, 'N').trim();

/**
 * A failure's defect: its own, or for a record written before defects existed, what its evidence
 * shows (no complete answer: `transport`), else a `value` in its message's words.
 */
export function defectOf(f: Failure): Defect {
  if (f.defect) return f.defect;
  const error = f.evidence?.error;
  if (error) return { kind: 'transport', code: error.code, what: error.message };
  return { kind: 'value', what: f.message, ...(f.path === undefined ? {} : { path: f.path }) };
}

/**
 * What makes two failures one cause, from their defects' facts: the same violation at the same
 * place, the same status mismatch, the same transport failure, the same way of breaking a client,
 * whichever check saw it; indices in a place and counts in a sentence are not part of it.
 */
export function causeKey(f: Failure): string {
  const d = defectOf(f);
  switch (d.kind) {
    case 'schema':
      return `schema ${folded(d.path)} ${d.keyword}: ${folded(d.what)}`;
    case 'status':
      return `status ${d.expected} got ${d.got}${d.sent === undefined ? '' : ` for ${d.sent}`}`;
    case 'transport':
      return `transport ${d.code}`;
    case 'client':
      return `client ${folded(d.what)}`;
    case 'value':
      return `value ${d.path === undefined ? '' : folded(d.path)} ${folded(d.what)}`;
    case 'changed':
      // The same change at the same place, whatever the values this time.
      return `changed ${d.change} ${folded(d.path)}`;
    case 'wait':
      // Whatever wait it asked: each is a refusal the guidance does not wait out.
      return `wait ${d.status} beyond the back-off cap`;
  }
}

/** The defect in its own words, without the statement of the check that saw it. */
export function headlineOf(d: Defect): string {
  switch (d.kind) {
    case 'schema':
      return `${d.path || '/'}: ${d.what}`;
    case 'status':
      return `${d.sent === undefined ? '' : `${d.sent}: `}expected HTTP ${d.expected}, got ${d.got}`;
    case 'transport':
      return `${d.code}: ${d.what}`;
    case 'client':
    case 'value':
    case 'changed':
    case 'wait':
      return d.what;
  }
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: readonly string[]): string => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** What a result counts under: each failure (a flaky check's failing runs too), or an error's root cause. */
interface Counted {
  key: string;
  message: string;
  headline: string;
  code?: string;
  /** A client defect's clients, named together in the cause's headline. */
  client?: string;
}

/** `answered 200 with the error envelope (...): `: what a success that is a refusal is called in every text of it. */
export function errorEnvelopeWords(f: Pick<Failure, 'errorEnvelope' | 'evidence'>): string {
  return f.errorEnvelope === undefined ? '' : `answered ${f.evidence?.response?.status ?? 'a success'} with the error envelope (${f.errorEnvelope}): `;
}

function countedOf(r: CheckResult): Counted[] {
  if (r.verdict === 'fail' || r.verdict === 'flaky') {
    return (r.failures ?? []).map((f) => {
      const d = defectOf(f);
      // The message already leads with it (runner/execute.ts); the defect's own words do not.
      return { key: causeKey(f), message: f.message, headline: `${errorEnvelopeWords(f)}${headlineOf(d)}`, ...(d.kind === 'client' ? { client: `${d.client}@${d.version}` } : {}) };
    });
  }
  if (r.verdict !== 'error') return [];
  // A request not sent because its route or the endpoint was declared unresponsive, or abandoned
  // when it was, is the silence that declared it: a dead port is one ECONNREFUSED, not three.
  // An error recorded before errors had a cause says its reason only (results/upgradeResult.ts).
  if (r.cause.code === UNRECORDED_CAUSE) return [{ key: `error ${r.cause.what}`, message: r.cause.what, headline: r.cause.what }];
  const text = `${r.cause.code}: ${r.cause.what}`;
  return [{ key: `error ${text}`, message: text, headline: text, code: r.cause.code }];
}

/**
 * Failures and errors grouped by cause, most severe first, then the most widespread: a report leads
 * with "30 failures from 6 causes" instead of the same sentence 22 times.
 */
export function causesOf(results: readonly CheckResult[]): Cause[] {
  const byKey = new Map<string, Cause & { clients: string[] }>();
  for (const r of results) {
    for (const c of countedOf(r)) {
      const cause = byKey.get(c.key) ?? { key: c.key, message: c.message, headline: c.headline, ...(c.code ? { code: c.code } : {}), severity: r.severity, failures: 0, affected: [], clients: [] };
      if (c.client && !cause.clients.includes(c.client)) cause.clients.push(c.client);
      // Checks of different statements share the defect: the message is the defect, not the first one's statement.
      if (cause.failures > 0 && cause.message !== c.message) cause.message = cause.clients.length > 0 ? `breaks ${listed(cause.clients)}: ${c.headline}` : c.headline;
      cause.failures += 1;
      if (RANK[r.severity] < RANK[cause.severity]) cause.severity = r.severity;
      if (!cause.affected.some((a) => a.checkId === r.checkId && a.model === r.model)) cause.affected.push({ checkId: r.checkId, model: r.model });
      byKey.set(c.key, cause);
    }
  }
  return [...byKey.values()]
    .map(({ clients, ...cause }) => (clients.length > 0 ? { ...cause, headline: `breaks ${listed(clients)}: ${cause.headline}` } : cause))
    .sort((a, b) => RANK[a.severity] - RANK[b.severity] || b.affected.length - a.affected.length || a.message.localeCompare(b.message));
}

/** The first failure of `results` with this cause, for its evidence. */
export function firstFailureOf(cause: Cause, results: readonly CheckResult[]): Failure | undefined {
  for (const r of results) for (const f of r.failures ?? []) if (causeKey(f) === cause.key) return f;
  return undefined;
}
