import type { Check } from '#harness/checks/define.ts';
import { globMatcher, patternsOf } from '#harness/checks/selection.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import type { FaultDef } from '#harness/emulator/faults/catalogue.ts';
import { featuresOf, leftOutByCheck } from '#harness/spec/features.ts';
import { basisText } from '#harness/spec/basis.ts';
import type { Basis, Spec } from '#harness/spec/model.ts';

/**
 * What `list` and `explain` say about a check, read off the check and the spec alone (nothing is
 * sent): the models it runs on, the features it needs, the spec entries it enforces, the faults of
 * the emulator that break them.
 */

/** The models of the spec the check runs on (its `appliesTo`), in the spec's order. */
export function modelsOf(spec: Spec, check: Check): string[] {
  return Object.entries(spec.models).filter(([id, m]) => check.appliesTo(m, id)).map(([id]) => id);
}

/**
 * The features a run may leave out (`--without`) that the check needs by its spec entries (the rule
 * the runner applies before running it: features.ts leftOutByCheck). Features a request asks for
 * (`stream`, `tools`...) and route features are known per request only, when the check runs.
 */
export function featuresNeeded(spec: Spec, check: Check): string[] {
  return featuresOf(spec).filter((f) => leftOutByCheck(spec, [f], check.specRefs) !== undefined);
}

/** Said wherever `needs` is shown: what it covers and what it cannot. */
export const NEEDS_NOTE =
  'Features shown are those a run may leave out (--without) that a check judges by its spec entries (features.yaml spec_entries); ' +
  'those a request asks for (stream, tools, response_format, thinking) or a route serves are known per request only, when the check runs.';

/** How a fault relates to a check: the entry it breaks is one the check enforces, inside one, or contains one. */
export type FaultRelation = 'same entry' | 'inside' | 'contains';

/**
 * The faults whose broken entry the check covers, by the rule of faultWalk.test.ts: a spec ref equal
 * to `breaks`, or one a prefix of the other at a dot. Exact first, then narrower, then broader.
 */
export function faultsCovering(check: Pick<Check, 'specRefs'>, faults: readonly FaultDef[]): { fault: FaultDef; relation: FaultRelation }[] {
  const found: { fault: FaultDef; relation: FaultRelation }[] = [];
  for (const fault of faults) {
    const refs = check.specRefs;
    const relation: FaultRelation | undefined = refs.includes(fault.breaks)
      ? 'same entry'
      : refs.some((ref) => fault.breaks.startsWith(`${ref}.`))
        ? 'inside'
        : refs.some((ref) => ref.startsWith(`${fault.breaks}.`))
          ? 'contains'
          : undefined;
    if (relation) found.push({ fault, relation });
  }
  const order: FaultRelation[] = ['same entry', 'inside', 'contains'];
  return found.sort((a, b) => order.indexOf(a.relation) - order.indexOf(b.relation));
}

/**
 * `run` flags selecting exactly this check: `--only` is a substring, so ids that contain this one
 * (`….streamed` twins) are left out again with `--skip` (which, being a substring of theirs, never
 * matches this id).
 */
export function onlyThisCheck(id: string, allIds: readonly string[]): string {
  const longer = allIds.filter((other) => other !== id && other.includes(id));
  return `--only ${id}${longer.length > 0 ? ` --skip ${longer.join(',')}` : ''}`;
}

/** The patterns given (each possibly a comma-separated list), and any that match no check. */
export function patternProblems(given: readonly string[], ids: readonly string[]): { patterns: string[]; unmatched: string[] } {
  const patterns = patternsOf(given);
  return { patterns, unmatched: patterns.filter((p) => !ids.some(globMatcher(p))) };
}

/**
 * Ids close to a wrong one: those it starts or is contained in; else those sharing its longest
 * start at a dot (the same area and subject); else those containing its last segment.
 */
export function closestIds(wanted: string, ids: readonly string[], limit = 8): string[] {
  const w = wanted.toLowerCase();
  const containing = ids.filter((id) => id.startsWith(w) || id.includes(w) || w.includes(id));
  if (containing.length > 0) return containing.slice(0, limit);
  const segments = w.split('.');
  for (let n = segments.length - 1; n >= 1; n--) {
    const head = `${segments.slice(0, n).join('.')}.`;
    const sharing = ids.filter((id) => id.startsWith(head));
    if (sharing.length > 0) return sharing.slice(0, limit);
  }
  const last = segments.at(-1) ?? w;
  return last.length >= 3 ? ids.filter((id) => id.includes(last)).slice(0, limit) : [];
}

/** A spec ref walked in the spec: the entry it names, or how far it got. */
export interface ResolvedRef {
  ref: string;
  found: boolean;
  /** The entry (found), or the deepest one reached. */
  node: unknown;
  /** The dotted part that names nothing (not found). */
  missing?: string;
}

/**
 * Walks `rules.chat.messages.non-empty`, `objects.usage.fields.total_tokens`,
 * `streaming.events.first_chunk`... through the spec: a map by its keys, a list by its entries'
 * `id`. Keys and ids may hold dots themselves, so each step takes the longest run of segments that
 * names something.
 */
export function resolveSpecRef(spec: Spec, ref: string): ResolvedRef {
  const segments = ref.split('.');
  let node: unknown = spec;
  let i = 0;
  while (i < segments.length) {
    let next: { node: unknown; to: number } | undefined;
    for (let j = segments.length; j > i && next === undefined; j--) {
      const key = segments.slice(i, j).join('.');
      if (Array.isArray(node)) {
        const hit = node.find((e) => isRecord(e) && (e.id === key || e.name === key));
        if (hit !== undefined) next = { node: hit, to: j };
      } else if (isRecord(node) && Object.hasOwn(node, key)) next = { node: node[key], to: j };
    }
    if (next === undefined) return { ref, found: false, node, missing: segments.slice(i).join('.') };
    node = next.node;
    i = next.to;
  }
  return { ref, found: true, node };
}

/** Keys printed first, as prose, in this order. */
const PROSE = ['title', 'statement', 'notes', 'note', 'advice', 'status_note', 'source'] as const;
/** A value longer than this, in compact JSON, is summarised. */
const WIDE = 160;
/** Keys left out: the ref already names the entry. */
const SAID = new Set(['id']);

/**
 * An entry as `key  value` lines: its prose (`statement`, `notes`, `source`...) first, then its
 * other keys, short values as compact JSON and long ones summarised (`12 entries: a, b, ...`).
 */
export function entryLines(node: unknown): [string, string][] {
  if (!isRecord(node)) return [['value', compact(node)]];
  const values = Object.values(node);
  const hasProse = PROSE.some((k) => node[k] !== undefined);
  if (!hasProse && values.length > 0 && values.every(isRecord)) return [['entries', Object.keys(node).join(', ')]];
  const lines: [string, string][] = [];
  for (const key of PROSE) {
    const v = node[key];
    if (v === undefined) continue;
    lines.push([key, typeof v === 'string' ? v.trim() : Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join('; ') : compact(v)]);
  }
  for (const [key, v] of Object.entries(node)) {
    if ((PROSE as readonly string[]).includes(key) || SAID.has(key)) continue;
    lines.push([key, key === 'basis' && (typeof v === 'string' || isRecord(v)) ? basisText(v as Basis) : compact(v)]);
  }
  return lines;
}

function compact(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  if (text.length <= WIDE) return typeof v === 'string' ? v : text;
  if (Array.isArray(v)) {
    const ids = v.map((e) => (isRecord(e) && typeof e.id === 'string' ? e.id : undefined));
    return ids.every((x) => x !== undefined) ? `${count(v.length, 'entry', 'entries')}: ${shorten(ids.join(', '))}` : count(v.length, 'item', 'items');
  }
  if (isRecord(v)) return `${count(Object.keys(v).length, 'entry', 'entries')}: ${shorten(Object.keys(v).join(', '))}`;
  return shorten(String(v));
}

const shorten = (text: string) => (text.length <= WIDE ? text : `${text.slice(0, WIDE - 1)}…`);

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
