import { describe, expect, test } from 'vitest';
import { headOf, type CheckResult, type ResultHead } from '#harness/core/outcome.ts';
import { parseRunRecord } from './parseRunRecord.ts';
import { upgradedResult } from './upgradeResult.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';

/*
 * A result's type says what its verdict carries (issue 50, item 2). `npm run typecheck` checks this
 * file: each line marked @ts-expect-error must stay an error, so the type cannot loosen unseen.
 */
const head: ResultHead = { checkId: 'a.b.c', title: 't', area: 'a', severity: 'must', specRefs: [], model: 'm', durationMs: 1 };

// @ts-expect-error a pass says what it judged
const passOverNothing: CheckResult = { ...head, verdict: 'pass' };
// @ts-expect-error a fail carries at least one failure
const failOfNothing: CheckResult = { ...head, verdict: 'fail', failures: [] };
// @ts-expect-error a skip carries its kind
const skipOfNoKind: CheckResult = { ...head, verdict: 'skip', reason: 'why' };
// @ts-expect-error an error carries its cause
const errorOfNoCause: CheckResult = { ...head, verdict: 'error', reason: 'why' };
// @ts-expect-error a flaky check carries its runs
const flakyOfNoRuns: CheckResult = { ...head, verdict: 'flaky', reason: 'why' };
// @ts-expect-error a pass carries no failures: none of the fields of another verdict
const passWithFailures: CheckResult = { ...head, verdict: 'pass', judged: { exchanges: 1 }, failures: [{ message: 'broken' }] };
const failed: CheckResult = { ...head, verdict: 'fail', failures: [{ message: 'broken' }] };
// @ts-expect-error a skip made from a fail keeps none of its failures (headOf gives what a result of another verdict may keep)
const skipOfAFail: CheckResult = { ...failed, verdict: 'skip', skipKind: 'blocked', reason: 'blocked' };
const skipFromHead: CheckResult = { ...headOf(failed), verdict: 'skip', skipKind: 'blocked', reason: 'blocked' };

const wellTyped: CheckResult[] = [
  { ...head, verdict: 'pass', judged: { exchanges: 1 } },
  { ...head, verdict: 'fail', failures: [{ message: 'broken' }] },
  { ...head, verdict: 'skip', skipKind: 'inconclusive', reason: 'inconclusive: why' },
  { ...head, verdict: 'error', reason: 'x', cause: { code: 'HARNESS_TIMEOUT', what: 'x' } },
];

describe('results written before their type said what each verdict carries', () => {
  test('the ill-typed lines above are what they say (and the well-typed ones type-check)', () => {
    expect([passOverNothing, failOfNothing, skipOfNoKind, errorOfNoCause, flakyOfNoRuns, passWithFailures, skipOfAFail].map((r) => r.verdict)).toEqual(['pass', 'fail', 'skip', 'error', 'flaky', 'pass', 'skip']);
    expect(skipFromHead).not.toHaveProperty('failures');
    expect(wellTyped).toHaveLength(4);
  });

  test('one reader upgrades them: each verdict gets what it carries, nothing else changes', () => {
    expect(upgradedResult({ ...head, verdict: 'pass' })).toEqual({ ...head, verdict: 'pass', judged: { exchanges: 0 } });
    expect(upgradedResult({ ...head, verdict: 'skip', reason: 'blocked by endpoint.user-balance-on-base-url.served (404)' })).toMatchObject({ skipKind: 'blocked' });
    expect(upgradedResult({ ...head, verdict: 'error', reason: 'HARNESS_TIMEOUT: no response' })).toMatchObject({ cause: { code: 'UNRECORDED_CAUSE', what: 'HARNESS_TIMEOUT: no response' } });
    expect(upgradedResult({ ...head, verdict: 'fail', reason: 'r' })).toMatchObject({ failures: [{ message: 'r' }] });
    for (const r of wellTyped) expect(upgradedResult(r)).toEqual(r);
    // What a verdict cannot carry is dropped: an old pass's empty failures, a skip's stale cause.
    expect(upgradedResult({ ...head, verdict: 'pass', judged: { exchanges: 2 }, failures: [] })).toEqual({ ...head, verdict: 'pass', judged: { exchanges: 2 } });
    expect(upgradedResult({ ...head, verdict: 'skip', skipKind: 'blocked', reason: 'b', cause: { code: 'X', what: 'x' } })).toEqual({ ...head, verdict: 'skip', skipKind: 'blocked', reason: 'b' });
  });

  test('a record read back is upgraded as it is read', () => {
    const record = sampleRecord();
    const old = { ...record, results: record.results.map((r) => (r.verdict === 'pass' ? (({ judged: _j, ...rest }) => rest)(r) : r)) };
    const read = parseRunRecord(JSON.stringify(old), 'old.json');
    expect(read.results.filter((r) => r.verdict === 'pass').every((r) => r.judged !== undefined)).toBe(true);
  });
});
