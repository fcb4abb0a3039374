import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import { ResultCollector } from './collector.ts';
import type { RunConfig } from './runConfig.ts';
import type { SuitesOptions, SuitesRun } from './suitesRun.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type { SuitesOptions, SuitesRun } from './suitesRun.ts';

/** Tests of a file waiting at once for the run's results: all of an area's, so none waits in vitest's line. */
const WAITING_TESTS = 256;

/**
 * Runs the suites in suites/ with vitest against one target and returns every check's result.
 * The suites are a thin adapter over the one runner (describeChecks.ts): one worker, whose first
 * test starts runChecks for the whole plan, and every test reports its check's result from it. The
 * CLI calls runChecks directly; this path stays for those who drive the suites with vitest. A stop
 * cancels the vitest run, which stops runChecks; vitest then reports none of the tests it was
 * waiting on, so a stopped runSuites returns fewer results than a stopped runChecks (which keeps
 * every check that ended).
 */
export async function runSuites(config: RunConfig, options: SuitesOptions = {}): Promise<SuitesRun> {
  const collector = new ResultCollector(options.progress);
  const saved = process.exitCode;
  const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const vitest = await createVitest(
    'test',
    { watch: false, config: false, reporters: [collector], silent: true },
    {
      root: REPO,
      test: {
        root: REPO,
        include: ['suites/**/*.suite.ts'],
        provide: { svcConformance: config },
        // Each test waits for the whole run; the runner bounds every check itself (timing.ts), and the suites have no hooks.
        testTimeout: 0,
        hookTimeout: 0,
        fileParallelism: false,
        // Tests only wait for results: scheduling and the limit on requests are the runner's.
        maxConcurrency: WAITING_TESTS,
        pool: 'threads',
        maxWorkers: 1,
        isolate: false,
        passWithNoTests: true,
      },
    },
  );
  // Vitest's logger exits the process on SIGINT/SIGTERM; the CLI handles them itself (partial reports).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const l of process.listeners(signal)) if (!before[signal].includes(l)) process.off(signal, l);
  }
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    void vitest.cancelCurrentRun('keyboard-input');
  };
  if (options.stop?.signal.aborted) cancel();
  options.stop?.signal.addEventListener('abort', cancel, { once: true });
  try {
    if (!cancelled) await vitest.start([]);
  } finally {
    options.stop?.signal.removeEventListener('abort', cancel);
    await vitest.close();
    // Vitest sets the exit code from its own view of failures; the CLI decides it from the checks.
    process.exitCode = saved;
  }
  const run = collector.run;
  return {
    results: collector.results,
    sent: collector.sent,
    ...(collector.firstCheckAt !== undefined ? { firstCheckAt: collector.firstCheckAt } : {}),
    ...(collector.lastCheckAt !== undefined ? { lastCheckAt: collector.lastCheckAt } : {}),
    requestMs: run?.requestMs ?? 0,
    cancelled: cancelled || run?.cancelled === true,
    ...(run?.keyRefused ? { keyRefused: run.keyRefused } : {}),
    ...(run?.transport ? { transport: run.transport } : {}),
  };
}
