import { describe, expect, test } from 'vitest';
import { serializeRunRecord, serializeRunSummary } from './serialize.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { summaryOf } from './summaryOf.ts';
import type { RunRecord } from './runRecord.ts';

/** Payloads: recorded as observed, so the serializer leaves their order alone. */
const PAYLOAD = new Set(['body', 'headers']);

/** The same value with every object's keys reversed (payloads too, when `payloads`). */
function reversed<T>(value: T, payloads = false): T {
  if (Array.isArray(value)) return value.map((v: unknown) => reversed(v, payloads)) as T;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).reverse();
    return Object.fromEntries(entries.map(([k, v]) => [k, PAYLOAD.has(k) && !payloads ? v : reversed(v, payloads)])) as T;
  }
  return value;
}

describe('serializeRunRecord', () => {
  test('pretty JSON with a trailing newline, which parses back to the record', () => {
    const text = serializeRunRecord(sampleRecord());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "schemaVersion": 1,\n  "harness": {\n    "name": "svc-conformance",')).toBe(true);
    expect(JSON.parse(text)).toEqual(sampleRecord());
  });

  test('stable key order: the same record built in another order gives the same bytes', () => {
    expect(serializeRunRecord(reversed(sampleRecord()))).toBe(serializeRunRecord(sampleRecord()));
  });

  test('summary and usage come before the results; recorded bodies and headers keep their own order', () => {
    const text = serializeRunRecord(reversed(sampleRecord(), true));
    expect(text.indexOf('"summary"')).toBeLessThan(text.indexOf('"results"'));
    // a response body is evidence: written as it was recorded (here reversed), not reordered
    const body = (JSON.parse(text) as RunRecord).results[1]!.failures![0]!.evidence!.response!.body as object;
    expect(Object.keys(body)[0]).toBe('usage');
  });

  test('unknown keys are kept, after the known ones, sorted', () => {
    const r = { ...sampleRecord(), zeta: 1, alpha: 2 } as RunRecord;
    const keys = Object.keys(JSON.parse(serializeRunRecord(r)) as object);
    expect(keys.slice(-2)).toEqual(['alpha', 'zeta']);
  });

  test('a run summary is laid out the same way', () => {
    const s = summaryOf([sampleRecord()], ['a/report.json']);
    expect(serializeRunSummary(reversed(s))).toBe(serializeRunSummary(s));
    expect(serializeRunSummary(s).endsWith('\n')).toBe(true);
  });
});
