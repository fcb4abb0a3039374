import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One project, `unit`: the tests beside each module. The check suites under suites/ are driven by the
// CLI against a target (they need one), so `npm test` runs them only through the tests that start it.
// Concurrent tests (the hostile endpoints, each mostly waiting on a timeout) all start at once.
// No test is about how long it takes (a bound under test is a clock the test controls, or a
// timeout of its own), so the default limits are generous: vitest's 5 s would fail a test that
// merely ran on a busy machine.
// At least three test files at once: vitest's default (one fewer than the cores) is a single worker on
// a 2-core machine, where the files that mostly wait (hostile and silent endpoints, each on a timeout)
// then hold up every other file. Measured on 2 cores: 521 s with one worker, 290-305 s with two,
// 184-201 s with three.
export default defineConfig({
  test: {
    maxWorkers: Math.max(3, availableParallelism() - 1),
    maxConcurrency: 20,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['harness/**/*.test.ts'],
          benchmark: { include: ['harness/**/*.bench.ts'] },
        },
      },
    ],
  },
});
