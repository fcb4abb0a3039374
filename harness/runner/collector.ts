import type { TaskMeta } from 'vitest';
import type { Reporter, TestCase } from 'vitest/node';
import type { CheckResult } from '#harness/core/outcome.ts';
import './meta.ts';
import type { SuitesRun } from './suitesRun.ts';

/**
 * The reporter that collects each check's result (from task meta) in the CLI process, and prints
 * progress as results arrive. Reports are written from what it collects, not from vitest's own state.
 */
export class ResultCollector implements Reporter {
  readonly results: CheckResult[] = [];
  /** What the run came to besides its results (every check's meta carries it). */
  run: NonNullable<TaskMeta['svcRun']> | undefined;
  /** Per check: requests sent and their most possible cost in tokens. */
  readonly sent: SuitesRun['sent'] = [];
  firstCheckAt: number | undefined;
  lastCheckAt: number | undefined;
  constructor(private readonly progress: (result: CheckResult, count: number) => void = () => undefined) {}

  onTestCaseReady(): void {
    this.firstCheckAt ??= performance.now();
  }

  readonly #seen = new Set<string>();

  onTestCaseResult(testCase: TestCase): void {
    // A cancelled run can report a test twice; a check counts once.
    if (this.#seen.has(testCase.id)) return;
    this.#seen.add(testCase.id);
    this.lastCheckAt = performance.now();
    const meta = testCase.meta();
    this.run ??= meta.svcRun;
    if (meta.svcResult && meta.svcRequests) this.sent.push({ checkId: meta.svcResult.checkId, model: meta.svcResult.model, ...meta.svcRequests });
    if (meta.svcResult) {
      this.results.push(meta.svcResult);
      this.progress(meta.svcResult, this.results.length);
      return;
    }
    // A test that ended without a result (a crash in the glue): kept as an error, never dropped.
    const state = testCase.result().state;
    if (state === 'pending' || state === 'skipped') return;
    const reason = testCase.result().errors?.map((e) => e.message).join('; ') ?? 'the test ended without a result';
    const result: CheckResult = {
      checkId: testCase.name,
      title: testCase.name,
      area: testCase.name.split('.')[0] ?? 'unknown',
      severity: 'must',
      specRefs: [],
      model: testCase.parent.type === 'suite' ? (/\[(.+)\]$/.exec(testCase.parent.name)?.[1] ?? '') : '',
      verdict: 'error',
      reason,
      cause: { code: 'TEST_WITHOUT_RESULT', what: reason },
      durationMs: testCase.diagnostic()?.duration ?? 0,
    };
    this.results.push(result);
    this.progress(result, this.results.length);
  }
}
