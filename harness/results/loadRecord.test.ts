import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createAjv } from '#harness/core/createAjv.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { madeUpLoadRun } from '#harness/testing/sampleLoad.ts';
import { loadFiguresOf } from './loadFigures.ts';
import { parseRunRecord, runRecordProblems } from './parseRunRecord.ts';
import { RUN_RECORD_LAYOUT, serializeRunRecord, type Layout } from './serialize.ts';
import type { RunRecord } from './runRecord.ts';

const reportSchema = JSON.parse(readFileSync(new URL('../../reports/report.schema.json', import.meta.url), 'utf8')) as { properties: object; $defs: Record<string, { properties: Record<string, unknown> }> };
const validateReport = createAjv().compile(reportSchema);

const withLoad = (): RunRecord => ({ ...sampleRecord(), options: { ...sampleRecord().options, load: 4 }, load: loadFiguresOf(madeUpLoadRun()) });

function errorsOf(value: unknown): string[] {
  return validateReport(value) ? [] : (validateReport.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

describe('a record with the load figures', () => {
  test('is valid against reports/report.schema.json, and reads back as written', () => {
    const record = withLoad();
    expect(errorsOf(JSON.parse(serializeRunRecord(record)))).toEqual([]);
    expect(parseRunRecord(serializeRunRecord(record), 'report.json').load).toEqual(record.load);
  });

  test('a record written before them still reads; a broken one does not', () => {
    expect(parseRunRecord(serializeRunRecord(sampleRecord()), 'old.json')).not.toHaveProperty('load');
    const broken = (mutate: (r: RunRecord) => void) => {
      const r = withLoad();
      mutate(r);
      return runRecordProblems(JSON.parse(JSON.stringify(r)));
    };
    expect(broken((r) => (r.load!.steps[0]!.ttftMs.p50 = -1)).some((p) => p.startsWith('/load/steps/0/ttftMs/p50'))).toBe(true);
    expect(broken((r) => Object.assign(r.load!.steps[0]!, { verdict: 'pass' })).some((p) => p.startsWith('/load/steps/0'))).toBe(true);
    expect(broken((r) => delete (r.load as Partial<NonNullable<RunRecord['load']>>).totals).some((p) => p.startsWith('/load'))).toBe(true);
  });

  test('is laid out after the causes, before the results, each of its keys in the order the schema lists', () => {
    const keys = Object.keys(JSON.parse(serializeRunRecord({ ...withLoad(), causes: [] })) as object);
    expect(keys.slice(-4)).toEqual(['usage', 'causes', 'load', 'results']);
    const layout = RUN_RECORD_LAYOUT.kind === 'object' ? RUN_RECORD_LAYOUT.fields?.['load'] : undefined;
    const keysOf = (l: Layout | undefined) => (l?.kind === 'object' ? [...l.keys].sort() : []);
    const fieldOf = (l: Layout | undefined, k: string) => (l?.kind === 'object' ? l.fields?.[k] : undefined);
    const props = (name: string) => Object.keys(reportSchema.$defs[name]!.properties).sort();
    expect(keysOf(layout)).toEqual(props('load'));
    expect(keysOf(fieldOf(layout, 'totals'))).toEqual(props('loadCounts'));
    const step = fieldOf(layout, 'steps');
    expect(keysOf(step?.kind === 'array' ? step.of : undefined)).toEqual(props('loadStep'));
    const samples = fieldOf(step?.kind === 'array' ? step.of : undefined, 'samples');
    expect(keysOf(fieldOf(samples, 'ttftMs'))).toEqual(props('loadSamples'));
    // The same record gives the same bytes.
    expect(serializeRunRecord(withLoad())).toBe(serializeRunRecord(withLoad()));
  });
});
