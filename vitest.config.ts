import { defineConfig } from 'vitest/config';

// Two projects, as STYLE.md lays out: `unit` holds the tests beside each module; `conformance`
// holds the check suites that the CLI drives against a target (they need a target, so `npm test`
// runs them only through the unit tests that start one).
export default defineConfig({
  test: {
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
