import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import { ResultCollector, type WorkerTiming } from './collector.ts';
import type { RunConfig } from './runConfig.ts';
import type { SuitesOptions, SuitesRun } from './suitesRun.ts';
import { checkBoundMs, timingOf } from '#harness/transport/timing.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type { SuitesOptions, SuitesRun } from './suitesRun.ts';

/**
 * Runs the suites in suites/ with vitest against one target and returns every check's result.
 * One worker, files one after another, tests of a file concurrently: the transport's concurrency
 * cap then holds for the whole run. The CLI runs the same plan in-process (runChecks.ts); this path
 * stays for those who drive the suites with vitest, and a test holds the two to the same verdicts.
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
        testTimeout: checkBoundMs(timingOf(config)),
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
  // Vitest's logger exits the process on SIGINT/SIGTERM; the CLI handles them itself (partial reports).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const l of process.listeners(signal)) if (!before[signal].includes(l)) process.off(signal, l);
  }
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    void vitest.cancelCurrentRun('keyboard-input');
  };
  if (options.stop?.aborted) cancel();
  options.stop?.addEventListener('abort', cancel, { once: true });
  try {
    if (!cancelled) await vitest.start([]);
  } finally {
    options.stop?.removeEventListener('abort', cancel);
    await vitest.close();
    // Vitest sets the exit code from its own view of failures; the CLI decides it from the checks.
    process.exitCode = saved;
  }
  return {
    results: collector.results,
    sent: collector.sent,
    ...(collector.firstCheckAt !== undefined ? { firstCheckAt: collector.firstCheckAt } : {}),
    ...(collector.lastCheckAt !== undefined ? { lastCheckAt: collector.lastCheckAt } : {}),
    requestMs: requestMsOf(collector.workers),
    cancelled,
    ...(collector.keyRefused ? { keyRefused: collector.keyRefused } : {}),
  };
}

/** Busy time summed over workers (one worker: exact; several: an upper bound, clamped by the caller). */
function requestMsOf(workers: ReadonlyMap<string, WorkerTiming>): number {
  return [...workers.values()].reduce((n, w) => n + w.requestMs, 0);
}
