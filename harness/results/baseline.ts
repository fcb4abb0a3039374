import { UsageError } from '#harness/core/errors/index.ts';
import type { RunRecord } from './runRecord.ts';

/**
 * The target a record is about, as two runs of it compare: the embedded emulator and a replayed
 * recording listen on a new port each run, so they are named by what they are; a live endpoint by
 * its base URL.
 */
export function targetKey(target: Pick<RunRecord['target'], 'kind' | 'baseUrl'>): string {
  if (target.kind === 'emulator') return 'emulator';
  if (target.kind === 'fixtures') return 'replay';
  return target.baseUrl;
}

/** A cell: one model on one target. */
export interface CellRef {
  model: string;
  target: Pick<RunRecord['target'], 'kind' | 'baseUrl'>;
}

/** A cell (target and model) in words, for messages. */
export const cellWords = (r: CellRef): string => `${r.model} at ${targetKey(r.target)}`;

/** The baseline's record of the same cell as `record`, if it has one. */
export function baselineCellOf(record: CellRef, baseline: readonly RunRecord[]): RunRecord | undefined {
  return baseline.find((b) => b.model === record.model && targetKey(b.target) === targetKey(record.target));
}

/**
 * Every cell the run will make must be in the baseline: a cell the baseline lacks would have no
 * known verdict for any check, and nothing would gate it. Asked before the run, so nothing is spent.
 */
export function checkBaselineCovers(cells: readonly CellRef[], baseline: readonly RunRecord[], source: string): void {
  const missing = cells.filter((c) => !baselineCellOf(c, baseline));
  if (missing.length === 0) return;
  const has = [...new Set(baseline.map(cellWords))];
  throw new UsageError(`--baseline ${source} holds no run of ${missing.map(cellWords).join(', ')} (it holds ${has.join(', ') || 'no cell'}): against it nothing could regress. Give a baseline of the same target and models, or run without --baseline.`);
}

/** The records with the baseline's verdicts of their own cell in their policy (gate.ts reads them there). */
export function withBaseline(records: readonly RunRecord[], baseline: readonly RunRecord[], source: string): RunRecord[] {
  checkBaselineCovers(records, baseline, source);
  return records.map((r) => {
    const b = baselineCellOf(r, baseline)!;
    return { ...r, options: { ...r.options, baseline: { source, verdicts: Object.fromEntries(b.results.map((x) => [x.checkId, x.verdict])) } } };
  });
}
