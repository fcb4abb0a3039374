import { describe, expect, test } from 'vitest';
import { isHarnessError } from '#harness/core/errors/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { buildRegistry } from './index.ts';
import { CheckRegistry, DuplicateCheckError } from './registry.ts';

const { spec } = loadSpec();

describe('CheckRegistry', () => {
  test('an id registered twice is a typed harness error naming it (issue 50)', () => {
    const [check] = buildRegistry(spec).all();
    const registry = new CheckRegistry().register(check!);
    let thrown: unknown;
    try {
      registry.register(check!);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DuplicateCheckError);
    expect(isHarnessError(thrown) && thrown.code).toBe('HARNESS_DUPLICATE_CHECK');
    expect((thrown as DuplicateCheckError).checkId).toBe(check!.id);
  });

  test('distinct ids register', () => {
    const checks = buildRegistry(spec).all().slice(0, 3);
    expect(new CheckRegistry().register(...checks).all().map((c) => c.id)).toEqual(checks.map((c) => c.id));
  });
});
