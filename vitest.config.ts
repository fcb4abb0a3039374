import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The tests beside each module, in two projects: `unit`, and `memory` for the files that measure the
// heap, alone in a fresh process each. The check suites under suites/ are driven by the CLI against a
// target (they need one), so `npm test` runs them only through the tests that start it.
// Concurrent tests (the hostile endpoints, each mostly waiting on a timeout) all start at once.
// No test is about how long it takes (a bound under test is a clock the test controls, or a
// timeout of its own), so the default limits are generous: vitest's 5 s would fail a test that
// merely ran on a busy machine.
// At least three test files at once: vitest's default (one fewer than the cores) is a single worker on
// a 2-core machine, where the files that mostly wait (hostile and silent endpoints, each on a timeout)
// then hold up every other file. Measured on 2 cores: 521 s with one worker, 290-305 s with two,
// 184-201 s with three.
// The `unit` files share their worker's process and modules (isolate: false): a file no longer pays
// for a fresh process and for importing the harness again (the spec, the registry, the validators),
// a fifth of the CPU time of `npm test`. Vitest still gives each file its own test state; what a test
// changes in the process (a spy, an env var, the clock, a signal listener, process.env) it restores,
// as it always had to for the tests beside it. A file that forces collections to measure what is
// held (bench/streamBudget.test.ts) runs in a process of its own: in a worker holding every module of
// the files before it, each collection costs several times as much.
const MEMORY = ['harness/bench/streamBudget.test.ts'];

// The files that take longest start first, longest first, so that none is left running alone at
// the end (on 2 cores: faultWalk about 130 s, pack up to 80 s, the others 10-55 s); the rest follow
// in vitest's order: on a fresh clone (CI: no results cache) the largest files first, which started
// clockShift, manyTargets and latency in the last minute of a 260 s run. A file missing here costs
// only time.
const LONGEST_FIRST = [
  'harness/cli/faultWalk.test.ts',
  'harness/cli/pack.test.ts',
  'harness/cli/secrets.test.ts',
  'harness/cli/clockShift.test.ts',
  'harness/cli/invalidClasses.test.ts',
  'harness/cli/hostile.test.ts',
  'harness/bench/streamBudget.test.ts',
  'harness/cli/gateway.test.ts',
  'harness/cli/loadPhase.test.ts',
  'harness/cli/waits.test.ts',
  'harness/runner/runChecks.test.ts',
  'harness/cli/manyTargets.test.ts',
  'harness/runner/latency.test.ts',
  'harness/cli/nothingShown.test.ts',
  'harness/cli/emptinessWalk.test.ts',
  'harness/cli/repeat.test.ts',
  'harness/cli/unresponsive.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    const inOrder = await super.sort(files);
    return inOrder.map((f, i) => ({ f, i, rank: rank(f) })).sort((a, b) => a.rank - b.rank || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    maxWorkers: Math.max(3, availableParallelism() - 1),
    maxConcurrency: 20,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['harness/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...MEMORY],
          isolate: false,
          benchmark: { include: ['harness/**/*.bench.ts'] },
        },
      },
      {
        extends: true,
        test: {
          name: 'memory',
          include: MEMORY,
          isolate: true,
          benchmark: { include: [] },
        },
      },
    ],
  },
});
