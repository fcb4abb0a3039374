import { describe, expect, test } from 'vitest';
import { createAjv } from '#harness/core/createAjv.ts';
import { schemaProblems } from './schemaProblems.ts';
import type { Layout } from './serialize.ts';

/** A small closed schema with a rule keyed on a field, laid out in another order than it lists its keys. */
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind', 'parts'],
  properties: {
    name: { type: 'string' },
    kind: { enum: ['one', 'many'] },
    parts: {
      type: 'array',
      items: {
        type: 'object',
        properties: { kind: { enum: ['one', 'many'] }, items: { type: 'array' } },
        if: { properties: { kind: { const: 'many' } } },
        then: { required: ['items'] },
        else: { properties: { items: { type: 'array', maxItems: 0 } } },
      },
    },
  },
};
const layout: Layout = { kind: 'object', keys: ['kind', 'name', 'parts'], fields: { parts: { kind: 'array', of: { kind: 'object', keys: ['kind', 'items'] } } } };
const validate = createAjv().compile(schema);
const problems = (value: unknown) => (validate(value) ? [] : schemaProblems(validate.errors ?? [], layout));

describe('schemaProblems', () => {
  test('one line per problem, with the value found, in the order the file lays the keys out', () => {
    expect(problems({ name: 3, parts: [], extra: true })).toEqual(['/: missing kind', '/name: must be a string, found 3', '/: unknown key extra']);
    expect(problems({ kind: 'few', name: 'n', parts: null })).toEqual(['/kind: must be one of "one", "many", found "few"', '/parts: must be an array, found null']);
  });

  test('a rule keyed on a field is said with its value, and not at all when that field is wrong', () => {
    expect(problems({ kind: 'one', name: 'n', parts: [{ kind: 'many' }, { kind: 'one', items: [1] }] })).toEqual([
      '/parts/0: missing items (kind "many")',
      '/parts/1/items: must be empty, found an array of 1 (kind "one")',
    ]);
    expect(problems({ kind: 'one', name: 'n', parts: [{ kind: 'lots', items: [1] }] })).toEqual(['/parts/0/kind: must be one of "one", "many", found "lots"']);
  });
});
