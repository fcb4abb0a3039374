import { defineConfig } from 'vitest/config';

// One project, `unit`: the tests beside each module. The check suites under suites/ are driven by the
// CLI against a target (they need one), so `npm test` runs them only through the tests that start it.
// Concurrent tests (the hostile endpoints, each mostly waiting on a timeout) all start at once.
export default defineConfig({
  test: {
    maxConcurrency: 20,
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
