import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import type { CheckResult } from '#harness/core/outcome.ts';
import { ResultCollector } from './collector.ts';
import type { RunConfig } from './runConfig.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs the suites in suites/ with vitest against one target and returns every check's result.
 * One worker, files one after another, tests of a file concurrently: the transport's concurrency
 * cap then holds for the whole run.
 */
export async function runSuites(config: RunConfig, progress?: (r: CheckResult, n: number) => void): Promise<CheckResult[]> {
  const collector = new ResultCollector(progress);
  const saved = process.exitCode;
  const vitest = await startVitest(
    'test',
    [],
    { watch: false, config: false, reporters: [collector], silent: true },
    {
      root: REPO,
      test: {
        root: REPO,
        include: ['suites/**/*.suite.ts'],
        provide: { svcConformance: config },
        testTimeout: 15 * 60_000,
        hookTimeout: 60_000,
        fileParallelism: false,
        maxConcurrency: Math.max(1, config.concurrency),
        pool: 'threads',
        maxWorkers: 1,
        isolate: false,
        passWithNoTests: true,
      },
    },
  );
  await vitest?.close();
  // Vitest sets the exit code from its own view of failures; the CLI decides it from the checks.
  process.exitCode = saved;
  return collector.results;
}
