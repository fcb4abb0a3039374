import { describe, expect, test } from 'vitest';
import { summarize } from './summarize.ts';
import { sampleFlakyResult, sampleResults } from '#harness/testing/sampleRecord.ts';

describe('summarize', () => {
  test('counts every verdict, and failures by severity', () => {
    expect(summarize(sampleResults())).toEqual({
      total: 9,
      pass: 2,
      fail: 4,
      flaky: 0,
      skip: 1,
      unsupported: 1,
      error: 1,
      mustFailures: 2,
      shouldFailures: 1,
      advisoryFailures: 1,
    });
  });

  test('an error verdict is counted apart and is never a failure, whatever its severity', () => {
    const errored = sampleResults().filter((r) => r.verdict === 'error');
    expect(errored[0]!.severity).toBe('must');
    expect(summarize(errored)).toMatchObject({ total: 1, error: 1, fail: 0, mustFailures: 0 });
  });

  test('a flaky verdict is counted under flaky only, never as a failure of its severity', () => {
    expect(sampleFlakyResult().severity).toBe('must');
    expect(summarize([sampleFlakyResult()])).toMatchObject({ total: 1, flaky: 1, fail: 0, mustFailures: 0 });
  });

  test('no results: all zero', () => {
    expect(Object.values(summarize([])).every((n) => n === 0)).toBe(true);
  });
});
