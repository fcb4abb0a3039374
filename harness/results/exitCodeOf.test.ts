import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { exitCodeOf, gatingFailures } from './exitCodeOf.ts';
import { SAMPLE_BASE_URL, sampleRecord } from './sample.ts';
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
    expect(gatingFailures([sampleRecord()], { strict: false }).map((f) => f.checkId)).toEqual([
      'request.temperature.rejects-out-of-range',
      'stream.framing.ends-with-done',
    ]);
  });

  test('a failing should-check fails the run only with strict; advisory never does', () => {
    const should = only((r) => r.verdict !== 'fail' || r.severity !== 'must');
    expect(exitCodeOf([should], { strict: false })).toBe(0);
    expect(exitCodeOf([should], { strict: true })).toBe(1);
    expect(gatingFailures([should], { strict: true }).map((f) => f.severity)).toEqual(['should']);
    const advisory = only((r) => r.verdict !== 'fail' || r.severity === 'advisory');
    expect(exitCodeOf([advisory], { strict: true })).toBe(0);
  });

  test('errors do not fail the run, even on a must-check, even with strict', () => {
    const errors = only((r) => r.verdict === 'error');
    expect(errors.results[0]!.severity).toBe('must');
    expect(exitCodeOf([errors], { strict: true })).toBe(0);
  });

  test('skip, unsupported and pass never fail the run; no records is a pass', () => {
    expect(exitCodeOf([only((r) => r.verdict !== 'fail' && r.verdict !== 'error')], { strict: true })).toBe(0);
    expect(exitCodeOf([], { strict: true })).toBe(0);
  });

  test('one failing cell among several fails the run', () => {
    expect(exitCodeOf([only((r) => r.verdict === 'pass'), sampleRecord()], { strict: false })).toBe(1);
  });

  test('a baseline forgives the failures it already had (same base URL, model, check), not new ones', () => {
    const now = sampleRecord();
    expect(exitCodeOf([now], { strict: true, baseline: [sampleRecord()] })).toBe(0);
    const partial = only((r) => r.checkId === 'request.temperature.rejects-out-of-range');
    expect(gatingFailures([now], { strict: false, baseline: [partial] }).map((f) => f.checkId)).toEqual(['stream.framing.ends-with-done']);
    // the same failure on another base URL is not known
    expect(exitCodeOf([now], { strict: false, baseline: [recordOf(sampleRecord().results, 'http://other.test')] })).toBe(1);
    // a baseline where the check passed forgives nothing
    const passed = recordOf(sampleRecord().results.map((r) => ({ ...r, verdict: 'pass' as const, failures: [] })), now.target.baseUrl);
    expect(exitCodeOf([now], { strict: false, baseline: [passed] })).toBe(1);
  });
});
