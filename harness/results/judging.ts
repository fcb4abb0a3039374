import { SKIP_KINDS, type CheckResult, type SkipKind, type Verdict } from '#harness/core/outcome.ts';
import { folded } from './causes.ts';
import { skipKindOf } from './skipKind.ts';

/** Why a result the outcome rests on was not judged: its skip's kind, unsupported, or an error. */
export type UnjudgedKind = SkipKind | 'unsupported' | 'error';

/** Every kind, in the order counts and reasons of equal size are listed. */
export const UNJUDGED_KINDS: readonly UnjudgedKind[] = [...SKIP_KINDS, 'unsupported', 'error'];

/** One of the leading reasons results were not judged: results of one kind sharing a hand-off or a premise. */
export interface UnjudgedReason {
  kind: UnjudgedKind;
  count: number;
  /** The handed defect, the premise or the error's cause, in words: its members' own when they agree, else folded. */
  reason: string;
  /** The check the defect was handed to (CheckResult.handedTo), when the group is a hand-off. */
  handedTo?: string;
}

/**
 * What a cell's outcome rests on and how much of it was judged: its must-checks (every check in a
 * cell with none, as the gate counts), how many were judged (pass, fail or flaky), the rest by
 * kind, and the leading reasons for the rest.
 */
export interface Judging {
  scope: 'must-check' | 'check';
  /** Results in the scope. */
  total: number;
  judged: number;
  /** Results in the scope not judged, by kind, in the order of UNJUDGED_KINDS. */
  notJudged: Partial<Record<UnjudgedKind, number>>;
  /** The largest groups of them (at most LEADING), the largest first. */
  reasons: UnjudgedReason[];
}

/** How many reasons a cell names: enough to say why, few enough for one line. */
export const LEADING = 3;

const JUDGED: ReadonlySet<Verdict> = new Set<Verdict>(['pass', 'fail', 'flaky']);

/** A result's kind when it was not judged; undefined when it was. */
export function unjudgedKindOf(r: CheckResult): UnjudgedKind | undefined {
  if (JUDGED.has(r.verdict)) return undefined;
  return r.verdict === 'skip' ? skipKindOf(r)! : (r.verdict as 'unsupported' | 'error');
}

/** The results an outcome rests on: the must-checks, or every result when there is none. */
export function restingOn(results: readonly CheckResult[]): { scope: Judging['scope']; results: CheckResult[] } {
  const must = results.filter((r) => r.severity === 'must');
  return must.length > 0 ? { scope: 'must-check', results: must } : { scope: 'check', results: [...results] };
}

/** The judging of one cell's results. */
export function judgingOf(results: readonly CheckResult[]): Judging {
  return judgingAcross([results]);
}

/**
 * The judging of several cells together (the run's line): each cell's scope chosen as the gate
 * chooses it, the counts added, the reasons grouped across cells, so one premise on four models is
 * one reason.
 */
export function judgingAcross(cells: readonly (readonly CheckResult[])[]): Judging {
  const rested = cells.map(restingOn);
  const all = rested.flatMap((c) => c.results);
  const unjudged = all.filter((r) => unjudgedKindOf(r) !== undefined);
  const counts = new Map<UnjudgedKind, number>();
  for (const r of unjudged) {
    const kind = unjudgedKindOf(r)!;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const notJudged = Object.fromEntries(UNJUDGED_KINDS.filter((k) => counts.has(k)).map((k) => [k, counts.get(k)!]));
  return {
    scope: rested.length > 0 && rested.every((c) => c.scope === 'must-check') ? 'must-check' : 'check',
    total: all.length,
    judged: all.length - unjudged.length,
    notJudged,
    reasons: leadingReasons(unjudged),
  };
}

/** Longest reason kept in the data; the outcome line cuts shorter (notJudgedWords). */
const REASON_MAX = 160;

/** A kind's word at the head of a reason, with a check it names (`blocked by served.x:`): the kind is data already. */
const KIND_PREFIX = /^(?:inconclusive|blocked(?: by \S+?)?|out of scope|budget|interrupted|not recorded|not captured|not applicable|not judged|unsupported)\s*:\s*/i;
/** Where a premise's first clause ends: what follows is detail (values, what it means for the check). */
const CLAUSE_END = ['; ', ': ', ' (', ', so ', ' — '];
/** A first clause shorter than this (`the stream: usage has no ...`) names no premise yet: cut at the next end. */
const CLAUSE_MIN = 20;

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Cut to `max` characters, marking the cut. */
export const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** Text on one line without its kind's prefix (and the check it names): the kind and the check are data already. */
function unprefixed(text: string): string {
  let out = oneLine(text);
  for (let i = 0; i < 2 && KIND_PREFIX.test(out); i++) out = out.replace(KIND_PREFIX, '');
  return out === '' ? oneLine(text) : out;
}

/** A premise without its kind's prefix, cut at its first clause: what the skip rests on, not its details. */
function premiseOf(reason: string): string {
  const text = unprefixed(reason);
  const ends = CLAUSE_END.map((sep) => text.indexOf(sep, CLAUSE_MIN)).filter((i) => i >= 0);
  return ends.length > 0 ? text.slice(0, Math.min(...ends)) : text;
}

/** Values folded out: quoted values, instants, counts (a status stays), so one premise on many answers is one. */
const foldedValues = (text: string): string =>
  folded(text.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/“[^”]*”/g, '“…”').replace(/\b\d{4}-\d\d-\d\d(?:[T ][\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?/g, '…'));

/**
 * What a premise is folded by, one after another: the result's own check id (a recording holds no
 * exchange of <its id>), its values, its model (one premise across cells). The last is the group's
 * key; a group says the least folded text its members agree on.
 */
const FOLDS: readonly ((text: string, r: CheckResult) => string)[] = [
  (text, r) => text.split(r.checkId).join('the check'),
  (text) => foldedValues(text),
  (text, r) => text.split(r.model).join('the model'),
];

/**
 * The words a result not judged is grouped by: its first hand-off's defect (a defect's own words
 * are kept whole: a schema violation is `path: what`), or without one its premise, else `left to
 * <check>`; else its error's typed cause; else its premise.
 */
function wordsOf(r: CheckResult, kind: UnjudgedKind): string {
  const handed = r.handedTo?.[0];
  if (handed) return handed.defect !== undefined ? unprefixed(handed.defect) : r.reason !== undefined ? premiseOf(r.reason) : `left to ${handed.check}`;
  return r.verdict === 'error' && r.cause ? oneLine(`${r.cause.code}: ${r.cause.what}`) : premiseOf(r.reason ?? kind);
}

/**
 * The largest groups of results not judged, at most `max`: each its kind, count and reason, and
 * the check it was handed to (a hand-off is grouped by its check and defect, anything else by its
 * folded premise). Ties go by kind, then reason, whatever the results' order.
 */
export function leadingReasons(unjudged: readonly CheckResult[], max = LEADING): UnjudgedReason[] {
  const groups = new Map<string, { kind: UnjudgedKind; count: number; levels: Set<string>[]; handedTo?: string }>();
  for (const r of unjudged) {
    const kind = unjudgedKindOf(r);
    if (kind === undefined) continue;
    const levels = [wordsOf(r, kind)];
    for (const fold of FOLDS) levels.push(fold(levels.at(-1)!, r));
    const handedTo = r.handedTo?.[0]?.check;
    const key = JSON.stringify([kind, handedTo ?? null, levels.at(-1)]);
    const group = groups.get(key) ?? { kind, count: 0, levels: levels.map(() => new Set<string>()), ...(handedTo ? { handedTo } : {}) };
    group.count += 1;
    levels.forEach((text, i) => group.levels[i]!.add(text));
    groups.set(key, group);
  }
  const reasons = [...groups.values()].map((g): UnjudgedReason => {
    // Its members' own words when they agree; else the least folded words they share (the last always is).
    const agreed = g.levels.find((texts) => texts.size === 1)!;
    return { kind: g.kind, count: g.count, reason: cut([...agreed][0]!, REASON_MAX), ...(g.handedTo ? { handedTo: g.handedTo } : {}) };
  });
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return reasons
    .sort((a, b) => b.count - a.count || UNJUDGED_KINDS.indexOf(a.kind) - UNJUDGED_KINDS.indexOf(b.kind) || byText(a.reason, b.reason) || byText(a.handedTo ?? '', b.handedTo ?? ''))
    .slice(0, max);
}

/** The kinds not judged and their counts, the largest first (equal ones in the order of UNJUDGED_KINDS): how words list them. */
export function byCount(notJudged: Judging['notJudged']): [UnjudgedKind, number][] {
  return UNJUDGED_KINDS.flatMap((k): [UnjudgedKind, number][] => (notJudged[k] === undefined ? [] : [[k, notJudged[k]]])).sort(([, m], [, n]) => n - m);
}

/** Longest reason in the outcome line. */
const LINE_REASON_MAX = 80;

const kindWord = (kind: UnjudgedKind, n: number): string => (kind === 'error' ? (n === 1 ? 'error' : 'errors') : kind);

/**
 * What was not judged, in the outcome line's words: `62 inconclusive (18: the answers carried no
 * message; 7: ...), 1 not-applicable (svc-reasoner retired at ...)`, the largest kind first. A
 * kind's reasons follow it (cut to one line's share); a count is left out where its one reason
 * covers the whole kind.
 */
export function notJudgedWords(j: Pick<Judging, 'notJudged' | 'reasons'>): string {
  const parts = byCount(j.notJudged).map(([kind, n]) => {
    const mine = j.reasons.filter((r) => r.kind === kind);
    const whole = mine.length === 1 && mine[0]!.count === n;
    const said = mine.map((r) => `${whole ? '' : `${r.count}: `}${cut(r.reason, LINE_REASON_MAX)}`);
    return `${n} ${kindWord(kind, n)}${said.length > 0 ? ` (${said.join('; ')})` : ''}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'none ran';
}
