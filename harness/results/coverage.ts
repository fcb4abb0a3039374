import { UNJUDGED_KINDS, unjudgedKindOf, type UnjudgedKind } from './judging.ts';
import type { RunRecord } from './runRecord.ts';

/**
 * A cell's coverage index: how many entries of the spec the run judged, of all the entries the
 * harness has checks for.
 *
 *     coverage = |distinct specRefs of the cell's judged results| / |distinct specRefs of the catalogue|
 *
 * - the catalogue is every check the harness has, with the spec entries each one judges: pass
 *   `buildRegistry(spec).all()` (harness/checks/index.ts). results/ may not import checks/ or spec/
 *   (the layering of architecture.test.ts), so the caller hands the checks in;
 * - a result is *judged* when its verdict is pass, fail or flaky, as the gate counts it: an error,
 *   a skip or unsupported judged no spec entry (an error still counts against the score, score.ts);
 * - a judged result covers the spec entries of its `specRefs` that the catalogue knows (a report of
 *   an older harness may name entries the catalogue no longer has: not counted, so covered ≤ total);
 * - beside the ratio: what was not judged, by skip kind (blocked, out-of-scope, inconclusive,
 *   not-recorded, budget, interrupted, not-applicable), unsupported and error, and how many of the
 *   catalogue's checks the record has no result for (left out by --only/--skip, or not applying to
 *   the model).
 *
 * Pure and stable: the same record and catalogue give the same coverage, whatever their order.
 */
export interface CatalogueCheck {
  id: string;
  specRefs: readonly string[];
}

export interface Coverage {
  /** Distinct spec entries the cell judged (pass, fail or flaky). */
  covered: number;
  /** Distinct spec entries of the catalogue. */
  total: number;
  /** covered / total, 0..1; undefined for an empty catalogue. */
  ratio: number | undefined;
  /** round(100 × ratio). */
  percent: number | undefined;
  /** The catalogue's entries no judged result covered, sorted. */
  uncovered: string[];
  /** Results not judged, by why: every skip kind (0 when none), unsupported and error. */
  notJudged: Record<UnjudgedKind, number>;
  /** Checks of the catalogue with no result in the record. */
  notRun: number;
}

/** The coverage of one cell against the catalogue (see the top of this file). */
export function coverageOf(record: RunRecord, catalogue: readonly CatalogueCheck[]): Coverage {
  const all = new Set(catalogue.flatMap((c) => c.specRefs));
  const covered = new Set<string>();
  const notJudged = Object.fromEntries(UNJUDGED_KINDS.map((k) => [k, 0])) as Coverage['notJudged'];
  for (const r of record.results) {
    const kind = unjudgedKindOf(r);
    if (kind === undefined) {
      for (const ref of r.specRefs) if (all.has(ref)) covered.add(ref);
    } else notJudged[kind] += 1;
  }
  const ran = new Set(record.results.map((r) => r.checkId));
  const ratio = all.size === 0 ? undefined : covered.size / all.size;
  return {
    covered: covered.size,
    total: all.size,
    ratio,
    percent: all.size === 0 ? undefined : Math.round((100 * covered.size) / all.size),
    uncovered: [...all].filter((ref) => !covered.has(ref)).sort(),
    notJudged,
    notRun: new Set(catalogue.map((c) => c.id).filter((id) => !ran.has(id))).size,
  };
}
