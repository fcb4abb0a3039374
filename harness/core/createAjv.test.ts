import { describe, expect, test } from 'vitest';
import { createAjv } from './createAjv.ts';

describe('createAjv', () => {
  test('draft 2020-12 with formats, every error by default, the first only on request', () => {
    const schema = { type: 'object', properties: { at: { type: 'string', format: 'date-time' }, n: { type: 'integer' } } };
    const all = createAjv().compile(schema);
    expect(all({ at: '2026-06-01T00:00:00Z', n: 1 })).toBe(true);
    expect(all({ at: 'yesterday', n: 'one' })).toBe(false);
    expect(all.errors?.map((e) => e.instancePath)).toEqual(['/at', '/n']);
    const first = createAjv({ firstErrorOnly: true }).compile(schema);
    expect(first({ at: 'yesterday', n: 'one' })).toBe(false);
    expect(first.errors).toHaveLength(1);
  });

  test('strict: an unknown keyword throws unless named in the vocabulary', () => {
    const schema = { type: 'string', 'x-strength': 'must' };
    expect(() => createAjv().compile(schema)).toThrow(/x-strength/);
    expect(createAjv({ vocabulary: ['x-strength'] }).compile(schema)('ok')).toBe(true);
  });

  test('contentMediaType application/json is enforced: the string must hold JSON', () => {
    const validate = createAjv().compile({ type: 'string', contentMediaType: 'application/json' });
    expect(validate('{"a":1}')).toBe(true);
    expect(validate('{"a":')).toBe(false);
    expect(validate.errors?.[0]?.message).toBe('must be a string holding JSON');
  });
});
