import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { exitCodeOf, gatingFailures } from './exitCodeOf.ts';
import { SAMPLE_BASE_URL, sampleFlakyResult, sampleRecord } from '#harness/testing/sampleRecord.ts';
import { summarize } from './summarize.ts';
import type { RunRecord } from './runRecord.ts';

function recordOf(results: CheckResult[], baseUrl = SAMPLE_BASE_URL): RunRecord {
  const r = sampleRecord();
  return { ...r, target: { ...r.target, baseUrl }, results, summary: summarize(results) };
}

const only = (pred: (r: CheckResult) => boolean) => recordOf(sampleRecord().results.filter(pred));

describe('exitCodeOf', () => {
  test('a failing must-check fails the run', () => {
    expect(exitCodeOf([sampleRecord()], { strict: false })).toBe(1);
    expect(gatingFailures([sampleRecord()], { strict: false }).map((f) => `${f.checkId} ${f.verdict}`)).toEqual([
      'request.temperature.rejects-out-of-range fail',
      'stream.framing.ends-with-done fail',
      'lifecycle.alias.retires-on-time error',
    ]);
  });

  test('a failing should-check fails the run only with strict; advisory never does', () => {
    const should = only((r) => r.verdict !== 'error' && (r.verdict !== 'fail' || r.severity !== 'must'));
    expect(exitCodeOf([should], { strict: false })).toBe(0);
    expect(exitCodeOf([should], { strict: true })).toBe(1);
    expect(gatingFailures([should], { strict: true }).map((f) => f.severity)).toEqual(['should']);
    const advisory = only((r) => r.verdict !== 'error' && (r.verdict !== 'fail' || r.severity === 'advisory'));
    expect(exitCodeOf([advisory], { strict: true })).toBe(0);
  });

  test('an error counts as a failure at its severity: a must-check that could not be judged fails the run', () => {
    const errors = only((r) => r.verdict === 'error');
    expect(errors.results[0]!.severity).toBe('must');
    expect(exitCodeOf([errors], { strict: false })).toBe(1);
    expect(gatingFailures([errors], { strict: false }).map((f) => f.verdict)).toEqual(['error']);
    const asShould = recordOf(errors.results.map((r) => ({ ...r, severity: 'should' as const })));
    expect(exitCodeOf([asShould], { strict: false })).toBe(0);
    expect(exitCodeOf([asShould], { strict: true })).toBe(1);
  });

  test('skip, unsupported and pass never fail the run; no records is a pass', () => {
    expect(exitCodeOf([only((r) => r.verdict !== 'fail' && r.verdict !== 'error')], { strict: true })).toBe(0);
    expect(exitCodeOf([], { strict: true })).toBe(0);
  });

  test('one failing cell among several fails the run', () => {
    expect(exitCodeOf([only((r) => r.verdict === 'pass'), sampleRecord()], { strict: false })).toBe(1);
  });

  test('with a baseline only regressions fail the run: checks that passed there and fail now', () => {
    const now = sampleRecord();
    // the baseline failed the same checks: known gaps, no regression
    expect(exitCodeOf([now], { strict: true, baseline: [sampleRecord()] })).toBe(0);
    // the baseline ran only one check, and it passed there: that one is the regression
    const partial = recordOf(now.results.filter((r) => r.checkId === 'stream.framing.ends-with-done').map((r) => ({ ...r, verdict: 'pass' as const, failures: [] })), now.target.baseUrl);
    expect(gatingFailures([now], { strict: false, baseline: [partial] }).map((f) => f.checkId)).toEqual(['stream.framing.ends-with-done']);
    // the same checks passing on another target are not this target's baseline
    const passing = recordOf(now.results.map((r) => ({ ...r, verdict: 'pass' as const, failures: [] })), 'http://other.test');
    const elsewhere = { ...passing, target: { ...passing.target, kind: 'live' as const } };
    expect(exitCodeOf([now], { strict: false, baseline: [elsewhere] })).toBe(0);
    // an embedded emulator is one target whatever port it listened on
    expect(exitCodeOf([now], { strict: false, baseline: [passing] })).toBe(1);
    // a baseline where every check passed: every must failure now is a regression
    const passed = recordOf(now.results.map((r) => ({ ...r, verdict: 'pass' as const, failures: [] })), now.target.baseUrl);
    expect(exitCodeOf([now], { strict: false, baseline: [passed] })).toBe(1);
  });

  test('a flaky check counts as a failure of its severity; with allowFlaky it fails the run at none', () => {
    const flaky = (severity: CheckResult['severity']) => recordOf([{ ...sampleFlakyResult(), severity }]);
    expect(gatingFailures([flaky('must')], { strict: false })).toEqual([{ baseUrl: SAMPLE_BASE_URL, model: 'svc-v4-flash', checkId: 'usage.total.equals-prompt-plus-completion', severity: 'must', verdict: 'flaky' }]);
    expect(exitCodeOf([flaky('must')], { strict: false, allowFlaky: true })).toBe(0);
    expect(exitCodeOf([flaky('should')], { strict: false })).toBe(0);
    expect(exitCodeOf([flaky('should')], { strict: true })).toBe(1);
    expect(exitCodeOf([flaky('should')], { strict: true, allowFlaky: true })).toBe(0);
    expect(exitCodeOf([flaky('advisory')], { strict: true })).toBe(0);
    // allowFlaky lets flaky checks through, not failures
    expect(exitCodeOf([sampleRecord()], { strict: false, allowFlaky: true })).toBe(1);
  });

  test('with a baseline, a check that passed there and is flaky now is a regression', () => {
    const now = recordOf([sampleFlakyResult()]);
    const passed = recordOf([{ ...sampleFlakyResult(), verdict: 'pass', failures: [] }]);
    expect(exitCodeOf([now], { strict: false, baseline: [passed] })).toBe(1);
    expect(exitCodeOf([now], { strict: false, baseline: [now] })).toBe(0);
    expect(exitCodeOf([now], { strict: false, allowFlaky: true, baseline: [passed] })).toBe(0);
  });
});
