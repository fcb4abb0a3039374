import { describe, expect, test } from 'vitest';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { RENDERERS } from './index.ts';

describe('every renderer', () => {
  test.each(Object.entries(RENDERERS))('%s is pure: same output twice, the record untouched', (_name, { render }) => {
    const record = sampleRecord();
    const first = render(record);
    expect(render(record)).toBe(first);
    expect(record).toEqual(sampleRecord());
    expect(first.endsWith('\n')).toBe(true);
  });
});
