import { describe, expect, test } from 'vitest';
import { buildRegistry } from '#harness/checks/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { compareIds } from './compareIds.ts';

const { spec } = loadSpec();

describe('compareIds', () => {
  test('orders every check id and model id as localeCompare does', () => {
    const ids = [...buildRegistry(spec).all().map((c) => c.id), ...Object.keys(spec.models)];
    expect(ids.every((id) => /^[a-z0-9.-]+$/.test(id))).toBe(true);
    // Every pair, both ways: a sort could hide a disagreement its input order happened to avoid.
    const disagree = ids.flatMap((a) => ids.filter((b) => Math.sign(compareIds(a, b)) !== Math.sign(a.localeCompare(b))).map((b) => `${a} / ${b}`));
    expect(disagree).toEqual([]);
  });

  test('the cases the collation could order otherwise: a prefix, `-` against `.`, digits against letters', () => {
    for (const [a, b] of [['a.b', 'a.b-c'], ['a.b', 'a.bc'], ['a-b', 'a.b'], ['a.1', 'a.a'], ['svc-v3.2', 'svc-v4-flash'], ['x9', 'xa']]) {
      expect(Math.sign(compareIds(a!, b!)), `${a} / ${b}`).toBe(Math.sign(a!.localeCompare(b!)));
      expect(Math.sign(compareIds(b!, a!)), `${b} / ${a}`).toBe(Math.sign(b!.localeCompare(a!)));
    }
  });
});
