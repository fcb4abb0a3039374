import { describe, expect, test } from 'vitest';
import { parseRunRecord, serializeRunRecord } from '#harness/results/index.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { renderJson } from './json.ts';

describe('renderJson', () => {
  test('is the file format of writeRunRecord, and reads back as the record', () => {
    const text = renderJson(sampleRecord());
    expect(text).toBe(serializeRunRecord(sampleRecord()));
    expect(parseRunRecord(text, 'report.json')).toEqual(sampleRecord());
  });
});
