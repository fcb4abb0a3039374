import { headOf } from '#harness/core/outcome.ts';
import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult, Verdict } from '#harness/core/outcome.ts';
import { sampleFlakyResult, sampleRecord } from '#harness/testing/sampleRecord.ts';
import { diffRecords } from './diffRecords.ts';
import { failureKey } from './failureKey.ts';
import type { RunRecord } from './runRecord.ts';
import { summarize } from './summarize.ts';

/** A record of one check per verdict given, ids `c.<n>.x`. */
function recordOf(verdicts: Verdict[]): RunRecord {
  const results: CheckResult[] = verdicts.map((verdict, i) => resultOf({ ...sampleFlakyResult(), checkId: `c.${i}.x`, verdict }));
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

  test('what went over the wire is no verdict: runs that differ only in traffic have no difference', () => {
    const traffic = (requests: number, reached: number) => ({ requests, retries: 0, concurrency: { initial: 4, max: 16, adaptive: true, reached, final: reached, decreases: 0 } });
    const d = diffRecords([{ ...recordOf(['pass', 'fail']), traffic: traffic(100, 16) }], [{ ...recordOf(['pass', 'fail']), traffic: traffic(300, 4) }]);
    expect([d.newlyFailing, d.newlyFlaky, d.newlyPassing, d.failingOtherwise, d.added, d.removed]).toEqual([[], [], [], [], [], []]);
    expect(diffRecords([recordOf(['pass'])], [{ ...recordOf(['pass']), traffic: traffic(100, 16) }]).decision.outcome).toBe('pass');
  });

  test('a check only in one run is added or removed, whatever its verdict', () => {
    const d = diffRecords([recordOf(['pass'])], [recordOf(['pass', 'flaky'])]);
    expect(names(d.added)).toEqual(['c.1.x -→flaky']);
    expect(names(diffRecords([recordOf(['pass', 'flaky'])], [recordOf(['pass'])]).removed)).toEqual(['c.1.x flaky→-']);
  });
});

describe('failure keys', () => {
  const failing = (key: string): RunRecord => {
    const results: CheckResult[] = [{ ...headOf(sampleFlakyResult()), checkId: 'c.0.x', verdict: 'fail', failures: [{ message: 'm', key }] }];
    return { ...sampleRecord(), results, summary: summarize(results) };
  };

  test('a check failing in both runs for another cause is told apart; the same cause, or no keys, is not', () => {
    expect(diffRecords([failing('c.0.x status:200')], [failing('c.0.x at:/usage/total_tokens')]).failingOtherwise.map((e) => [e.keysBefore, e.keysAfter])).toEqual([[['c.0.x status:200'], ['c.0.x at:/usage/total_tokens']]]);
    expect(diffRecords([failing('c.0.x status:200')], [failing('c.0.x status:200')]).failingOtherwise).toEqual([]);
    const keyless = { ...failing('x'), results: failing('x').results.map((r) => resultOf({ ...r, failures: [{ message: 'm' }] })) };
    expect(diffRecords([keyless], [failing('c.0.x status:200')]).failingOtherwise).toEqual([]);
  });

  test('a key is the check, the kind of cause and where: a place with indices folded, else the status, else the transport error', () => {
    const exchange = (status?: number) => ({ request: { method: 'POST', url: 'http://x/chat/completions', headers: {} }, ...(status ? { response: { status, headers: {}, durationMs: 1 } } : { error: { code: 'HARNESS_RESET', message: 'reset' } }), attempts: 1 });
    expect(failureKey('c', { message: 'm', path: '/choices/0/message/tool_calls/12/id', evidence: exchange(200) })).toBe('c at:/choices/*/message/tool_calls/*/id');
    expect(failureKey('c', { message: 'expected HTTP 400, got 200', evidence: exchange(200) })).toBe('c status:200');
    expect(failureKey('c', { message: 'x', defect: { kind: 'status', expected: '400', got: 500 } })).toBe('c status:500');
    expect(failureKey('c', { message: 'x', defect: { kind: 'schema', path: '/choices/3/index', keyword: 'type', what: 'must be integer' } })).toBe('c at:/choices/*/index');
    expect(failureKey('c', { message: 'reset', evidence: exchange() })).toBe('c transport:HARNESS_RESET');
    expect(failureKey('c', { message: 'the model list holds 3 ids, not 4' })).toBe('c said:the model list holds N ids, not N');
  });
});
