import { expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { resolveConstraints } from '../helpers/constraints.ts';
import { CHAT, operationOf } from '../helpers/specReading.ts';
import { breakDefs } from './applyBreak.ts';

const { spec } = loadSpec();
const opts = (model: string) => resolveConstraints(spec, { model }, 'test');

test('breakDefs builds the breaks once per spec, options and operation', () => {
  const defs = breakDefs(spec, opts('svc-v4-flash'));
  expect(breakDefs(spec, opts('svc-v4-flash'), CHAT)).toBe(defs);
  expect(breakDefs(spec, opts('svc-v4-pro'))).not.toBe(defs);
  expect(breakDefs(spec, opts('svc-v4-flash'), operationOf(spec, 'fim_completions'))).not.toBe(defs);
  expect(breakDefs(structuredClone(spec), opts('svc-v4-flash'))).not.toBe(defs);
  expect(breakDefs(spec, { ...opts('svc-v4-flash'), sentAs: 'their-id' })).not.toBe(defs);
});
