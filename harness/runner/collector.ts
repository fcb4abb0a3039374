import type { Reporter, TestCase } from 'vitest/node';
import type { CheckResult } from '#harness/core/outcome.ts';
import './meta.ts';

/**
 * The reporter that collects each check's result (from task meta) in the CLI process, and prints
 * progress as results arrive. Reports are written from what it collects, not from vitest's own state.
 */
export class ResultCollector implements Reporter {
  readonly results: CheckResult[] = [];
  constructor(private readonly progress: (result: CheckResult, count: number) => void = () => undefined) {}

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta();
    if (meta.svcResult) {
      this.results.push(meta.svcResult);
      this.progress(meta.svcResult, this.results.length);
      return;
    }
    // A test that ended without a result (a crash in the glue): kept as an error, never dropped.
    const state = testCase.result().state;
    if (state === 'pending' || state === 'skipped') return;
    const result: CheckResult = {
      checkId: testCase.name,
      title: testCase.name,
      area: testCase.name.split('.')[0] ?? 'unknown',
      severity: 'must',
      specRefs: [],
      model: testCase.parent.type === 'suite' ? (/\[(.+)\]$/.exec(testCase.parent.name)?.[1] ?? '') : '',
      verdict: 'error',
      reason: testCase.result().errors?.map((e) => e.message).join('; ') ?? 'the test ended without a result',
      durationMs: testCase.diagnostic()?.duration ?? 0,
    };
    this.results.push(result);
    this.progress(result, this.results.length);
  }
}
