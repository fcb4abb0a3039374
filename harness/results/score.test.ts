import fc from 'fast-check';
import { resultOf } from '#harness/testing/results.ts';
import { describe, expect, test } from 'vitest';
import type { CheckResult, Severity, Verdict } from '#harness/core/outcome.ts';
import { withResults } from '#harness/testing/outcomeRecords.ts';
import { sampleRecord, sampleRepeatedRecord } from '#harness/testing/sampleRecord.ts';
import type { RunRecord } from './runRecord.ts';
import { scoreOf, scoreText, SCORE_WEIGHT } from './score.ts';

const result = (checkId: string, severity: Severity, verdict: Verdict, extra: Partial<CheckResult> = {}): CheckResult => resultOf({
  checkId,
  title: checkId,
  area: checkId.split('.')[0]!,
  severity,
  specRefs: [`ref.${checkId}`],
  model: 'svc-v4-flash',
  verdict,
  durationMs: 1,
  ...extra,
});

const recordOf = (results: CheckResult[], options: Partial<RunRecord['options']> = {}): RunRecord => {
  const r = withResults(sampleRecord(), results);
  return { ...r, options: { ...r.options, ...options } };
};

describe('scoreOf', () => {
  test('the sample record: passes of 3 (must) + 2 (should) earn 5 of 17 scored weight, so 29', () => {
    // must pass 3, must fail 3, must fail 3, should fail 2, advisory fail 1, should pass 2, must error 3;
    // the skip and the unsupported check are not scored.
    const s = scoreOf(sampleRecord());
    expect(s).toEqual({ score: 29, earned: 5, weight: 17, scored: { pass: 2, fail: 4, flaky: 0, error: 1 }, known: 0 });
  });

  test('weights by severity: must 3, should 2, advisory 1', () => {
    expect(SCORE_WEIGHT).toEqual({ must: 3, should: 2, advisory: 1 });
    expect(scoreOf(recordOf([result('a.must', 'must', 'pass'), result('b.adv', 'advisory', 'fail')])).score).toBe(75);
    expect(scoreOf(recordOf([result('a.should', 'should', 'pass'), result('b.must', 'must', 'fail')])).score).toBe(40);
  });

  test('a flaky check earns half its weight; the ratio is rounded once, halves up (6.5 of 20 is 33)', () => {
    const s = scoreOf(sampleRepeatedRecord());
    expect(s.earned).toBe(6.5);
    expect(s.weight).toBe(20);
    expect(s.scored.flaky).toBe(1);
    expect(s.score).toBe(33);
  });

  test('an error counts as a failure of its severity', () => {
    expect(scoreOf(recordOf([result('a', 'must', 'pass'), result('b', 'must', 'error')])).score).toBe(50);
  });

  test('a known failure (failing in the baseline too) is left out of the score and counted apart', () => {
    const r = sampleRecord();
    const baseline = { source: 'base.json', verdicts: Object.fromEntries(r.results.map((x) => [x.checkId, x.checkId === 'request.temperature.rejects-out-of-range' ? ('fail' as const) : ('pass' as const)])) };
    const s = scoreOf({ ...r, options: { ...r.options, baseline } });
    expect(s.known).toBe(1);
    expect(s.weight).toBe(14);
    expect(s.score).toBe(36);
  });

  test('a failure listed in the known-failures file is left out too; one failing for another cause is scored', () => {
    const r = sampleRecord();
    const known = { source: 'svc-conformance.known.yaml', entries: [{ check: 'stream.framing.ends-with-done', reason: 'upstream bug', at: 'svc-conformance.known.yaml:1' }, { check: 'request.temperature.*', reason: 'clamped', causes: ['another cause'], at: 'svc-conformance.known.yaml:4' }] };
    const s = scoreOf({ ...r, options: { ...r.options, known } });
    expect(s.known).toBe(1);
    expect(s.weight).toBe(14);
  });

  test('a cell that scored nothing has no score, not 0', () => {
    expect(scoreOf(recordOf([])).score).toBeUndefined();
    const skipped = recordOf([result('a', 'must', 'skip', { skipKind: 'blocked' }), result('b', 'should', 'unsupported')]);
    expect(scoreOf(skipped)).toMatchObject({ score: undefined, weight: 0, earned: 0 });
    expect(scoreText(undefined)).toBe('no score');
    expect(scoreText(87)).toBe('87/100');
  });

  const verdicts = fc.constantFrom<Verdict>('pass', 'fail', 'flaky', 'skip', 'unsupported', 'error');
  const severities = fc.constantFrom<Severity>('must', 'should', 'advisory');
  const resultsArb = fc.array(fc.tuple(severities, verdicts), { maxLength: 40 }).map((xs) => xs.map(([s, v], i) => result(`c${i}`, s, v)));

  test('stable: the same verdicts in any order give the same score, twice, and the record is untouched', () => {
    fc.assert(
      fc.property(resultsArb.chain((rs) => fc.tuple(fc.constant(rs), fc.shuffledSubarray(rs, { minLength: rs.length, maxLength: rs.length }))), ([rs, shuffled]) => {
        const record = recordOf(rs);
        const copy = structuredClone(record);
        const first = scoreOf(record);
        expect(scoreOf(record)).toEqual(first);
        expect(scoreOf(recordOf(shuffled))).toEqual(first);
        expect(record).toEqual(copy);
      }),
    );
  });

  test('an integer 0..100: 100 when every scored check passed, 0 when none passed or was flaky', () => {
    fc.assert(
      fc.property(resultsArb, (rs) => {
        const { score, scored } = scoreOf(recordOf(rs));
        const n = scored.pass + scored.fail + scored.flaky + scored.error;
        if (n === 0) {
          expect(score).toBeUndefined();
          return;
        }
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
        if (scored.pass === n) expect(score).toBe(100);
        if (scored.pass + scored.flaky === 0) expect(score).toBe(0);
      }),
    );
  });
});
