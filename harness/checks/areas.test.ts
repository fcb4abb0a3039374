import { expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { AREAS, buildRegistry } from './index.ts';

const { spec } = loadSpec();

test('every check carries the area it is registered under, in its `area` and at the start of its id', () => {
  const wrong = AREAS.flatMap(({ area, checks }) => checks(spec).filter((c) => c.area !== area || !c.id.startsWith(`${area}.`)).map((c) => `${c.id} (area ${c.area}) registered under ${area}`));
  expect(wrong).toEqual([]);
  // The registry is the areas' checks, each once.
  expect(buildRegistry(spec).all().length).toBe(AREAS.reduce((n, { checks }) => n + checks(spec).length, 0));
});
