import type { SkipKind, Verdict } from '#harness/core/outcome.ts';

/** The first words a skip's reason started with before skips carried a kind (reports written then). */
const LEGACY_PREFIXES: readonly [RegExp, SkipKind][] = [
  [/^inconclusive\b/i, 'inconclusive'],
  [/^budget:/i, 'budget'],
  [/^interrupted\b/i, 'interrupted'],
  [/^out of scope\b/i, 'out-of-scope'],
  [/^(not recorded|not captured)\b|holds no capture/i, 'not-recorded'],
  [/^(blocked|not sent)\b|declared unresponsive/i, 'blocked'],
];

/**
 * A skip's kind: the one it carries, or, for a report written before skips had kinds, the one its
 * reason's first words name (else `not-applicable`). Undefined for anything but a skip.
 */
export function skipKindOf(r: { verdict: Verdict; reason?: string | undefined; skipKind?: SkipKind | undefined }): SkipKind | undefined {
  if (r.verdict !== 'skip') return undefined;
  if (r.skipKind) return r.skipKind;
  const reason = r.reason ?? '';
  return LEGACY_PREFIXES.find(([re]) => re.test(reason))?.[1] ?? 'not-applicable';
}
