import { describe, expect, test } from 'vitest';
import type { CheckResult, Verdict } from '#harness/core/outcome.ts';
import { sampleFlakyResult, sampleRecord } from '#harness/testing/sampleRecord.ts';
import { diffRecords } from './diffRecords.ts';
import type { RunRecord } from './runRecord.ts';
import { summarize } from './summarize.ts';

/** A record of one check per verdict given, ids `c.<n>.x`. */
function recordOf(verdicts: Verdict[]): RunRecord {
  const results: CheckResult[] = verdicts.map((verdict, i) => ({ ...sampleFlakyResult(), checkId: `c.${i}.x`, verdict }));
  return { ...sampleRecord(), results, summary: summarize(results) };
}

const names = (entries: { checkId: string; before?: Verdict; after?: Verdict }[]) => entries.map((e) => `${e.checkId} ${e.before ?? '-'}→${e.after ?? '-'}`);

describe('diffRecords', () => {
  test('pass → flaky is newly flaky; flaky → fail is newly failing; flaky → pass and fail → pass are newly passing', () => {
    const d = diffRecords([recordOf(['pass', 'flaky', 'flaky', 'fail', 'flaky', 'skip'])], [recordOf(['flaky', 'fail', 'pass', 'pass', 'flaky', 'flaky'])]);
    expect(names(d.newlyFlaky)).toEqual(['c.0.x pass→flaky', 'c.5.x skip→flaky']);
    expect(names(d.newlyFailing)).toEqual(['c.1.x flaky→fail']);
    expect(names(d.newlyPassing)).toEqual(['c.2.x flaky→pass', 'c.3.x fail→pass']);
  });

  test('a check only in one run is added or removed, whatever its verdict', () => {
    const d = diffRecords([recordOf(['pass'])], [recordOf(['pass', 'flaky'])]);
    expect(names(d.added)).toEqual(['c.1.x -→flaky']);
    expect(names(diffRecords([recordOf(['pass', 'flaky'])], [recordOf(['pass'])]).removed)).toEqual(['c.1.x flaky→-']);
  });
});
