import { describe, expect, test } from 'vitest';
import { buildRegistry, type Check } from '#harness/checks/index.ts';
import { AHEAD } from '#harness/checks/property/runProperty.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import type { Planned } from './plan.ts';
import { runChecks } from './runChecks.ts';
import { chainOf, longestChainFirst } from './schedule.ts';

const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');
const planned = (id: string, chain?: Check['chain']): Planned => ({ model: 'm', check: { id, ...(chain !== undefined ? { chain } : {}) } as Check });

describe('longestChainFirst', () => {
  test('long chains start first, a property\'s runs counting as its chain; equals keep the plan\'s order', () => {
    const order = longestChainFirst([planned('a'), planned('b', 2), planned('c'), planned('p', 'runs'), planned('d', 3), planned('e', 2)], 10 * AHEAD);
    expect(order.map((p) => p.check.id)).toEqual(['p', 'd', 'b', 'e', 'a', 'c']);
    // A property's first value alone, then AHEAD at a time (runProperty.ts): its chain is 1 and its other runs in rounds of AHEAD.
    expect(chainOf({ chain: 'runs' }, 1)).toBe(1);
    expect(chainOf({ chain: 'runs' }, 4)).toBe(2);
    expect(chainOf({ chain: 'runs' }, 2 * AHEAD + 1)).toBe(3);
    expect(chainOf({}, 4)).toBe(1);
  });
});

describe('declared chains', () => {
  test('no check waits on more round trips one after another than it declares (every check, every model, on the emulator)', async () => {
    // Before the legacy aliases retire, so their checks send too.
    const target = await emulatorTarget(spec, { now: NOW });
    try {
      const config = emulatorRunConfig(target, Object.keys(spec.models), NOW);
      const run = await runChecks(config);
      const checks = new Map(buildRegistry(spec).all().map((c) => [c.id, c]));
      const undeclared = run.sent.filter((s) => (s.rounds ?? 0) > chainOf(checks.get(s.checkId)!, config.runs)).map((s) => `${s.checkId} [${s.model}]: ${s.rounds} round trips, declares ${chainOf(checks.get(s.checkId)!, config.runs)}`);
      expect(undeclared).toEqual([]);
      // The measure is not vacuous: the longest chain declared is seen.
      expect(Math.max(...run.sent.map((s) => s.rounds ?? 0))).toBe(Math.max(...run.sent.map((s) => chainOf(checks.get(s.checkId)!, config.runs))));
    } finally {
      await target.close();
    }
  }, 60_000);
});
