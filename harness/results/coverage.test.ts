import fc from 'fast-check';
import { resultOf } from '#harness/testing/results.ts';
import { describe, expect, test } from 'vitest';
import { buildRegistry } from '#harness/checks/index.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { withResults } from '#harness/testing/outcomeRecords.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { coverageOf, type CatalogueCheck } from './coverage.ts';

/** The sample's checks, and one more the sample has no result for. */
function catalogue(): CatalogueCheck[] {
  return [...sampleRecord().results.map((r) => ({ id: r.checkId, specRefs: r.specRefs })), { id: 'extra.check.never-run', specRefs: ['extra.ref'] }];
}

describe('coverageOf', () => {
  test('the sample: the six judged checks cover 7 of the 11 spec entries; the rest counted by why', () => {
    const c = coverageOf(sampleRecord(), catalogue());
    expect(c).toMatchObject({ covered: 7, total: 11, percent: 64, notRun: 1 });
    expect(c.ratio).toBeCloseTo(7 / 11, 12);
    // The skip carries no kind: read from its reason as not-applicable (skipKind.ts).
    expect(c.notJudged).toEqual({ inconclusive: 0, blocked: 0, 'out-of-scope': 0, budget: 0, interrupted: 0, 'not-recorded': 0, 'not-applicable': 1, unsupported: 1, error: 1 });
    expect(c.uncovered).toEqual(['endpoints.fim_completion', 'extra.ref', 'lifecycle.aliases.svc-chat', 'rules.tool-choice-required']);
  });

  test('skips are counted by their kind, and cover nothing', () => {
    const r = sampleRecord();
    const kinds = ['blocked', 'out-of-scope', 'inconclusive', 'not-recorded', 'budget', 'interrupted'] as const;
    const results: CheckResult[] = r.results.map((x, i) => (i < kinds.length ? resultOf({ ...x, verdict: 'skip', skipKind: kinds[i], reason: 'skipped' }) : x));
    const c = coverageOf(withResults(r, results), catalogue());
    for (const k of kinds) expect(c.notJudged[k]).toBe(1);
    // Left judged: none of the first six; the skip (not-applicable), unsupported and error judge nothing.
    expect(c.covered).toBe(0);
  });

  test('a flaky check covers its entries; an entry the catalogue does not know is not counted', () => {
    const r = sampleRecord();
    const results: CheckResult[] = r.results.map((x) => (x.checkId === 'tools.tool-choice.required-forces-call' ? resultOf({ ...x, verdict: 'flaky', specRefs: [...x.specRefs, 'gone.from.spec'] }) : x));
    const c = coverageOf(withResults(r, results), catalogue());
    expect(c.covered).toBe(8);
    expect(c.total).toBe(11);
    expect(c.uncovered).not.toContain('rules.tool-choice-required');
  });

  test('an empty catalogue has no ratio', () => {
    expect(coverageOf(sampleRecord(), [])).toMatchObject({ covered: 0, total: 0, ratio: undefined, percent: undefined });
  });

  test('stable: the same record and catalogue in any order give the same coverage, and nothing is changed', () => {
    const r = sampleRecord();
    const first = coverageOf(r, catalogue());
    fc.assert(
      fc.property(fc.shuffledSubarray(r.results, { minLength: r.results.length, maxLength: r.results.length }), fc.shuffledSubarray(catalogue(), { minLength: 10, maxLength: 10 }), (results, cat) => {
        const record = withResults(r, results);
        const copy = structuredClone(record);
        expect(coverageOf(record, cat)).toEqual(first);
        expect(record).toEqual(copy);
      }),
    );
  });

  test('against the real catalogue (buildRegistry): every check has entries, and the sample covers some of them', () => {
    const checks = buildRegistry(loadSpec().spec).all();
    const c = coverageOf(sampleRecord(), checks);
    expect(c.total).toBeGreaterThan(20);
    expect(c.covered).toBeGreaterThan(0);
    expect(c.covered).toBeLessThanOrEqual(c.total);
    expect(c.covered + c.uncovered.length).toBe(c.total);
  });
});
