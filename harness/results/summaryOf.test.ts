import { describe, expect, test } from 'vitest';
import { summaryOf } from './summaryOf.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { summarize } from './summarize.ts';
import type { RunRecord } from './runRecord.ts';

function cell(baseUrl: string, model: string, at: [string, string], pick: (i: number) => boolean): RunRecord {
  const r = sampleRecord();
  const results = r.results.filter((_, i) => pick(i)).map((x) => ({ ...x, model }));
  return { ...r, target: { ...r.target, baseUrl }, model, startedAt: at[0], finishedAt: at[1], results, summary: summarize(results) };
}

describe('summaryOf', () => {
  const a = cell('http://a.test', 'svc-v4-flash', ['2026-05-10T09:00:05Z', '2026-05-10T09:01:00Z'], (i) => i === 0 || i === 3);
  const b = cell('http://b.test', 'svc-v4-pro', ['2026-05-10T09:00:01Z', '2026-05-10T09:00:50Z'], (i) => i !== 3);

  test('one cell per record with its report path; totals over every result; earliest start, latest finish', () => {
    const s = summaryOf([a, b], ['reports/a/report.json', 'reports/b/report.json']);
    expect(s.cells.map((c) => [c.baseUrl, c.model, c.report])).toEqual([
      ['http://a.test', 'svc-v4-flash', 'reports/a/report.json'],
      ['http://b.test', 'svc-v4-pro', 'reports/b/report.json'],
    ]);
    expect(s.cells[0]!.summary).toEqual(a.summary);
    expect(s.totals).toEqual(summarize([...a.results, ...b.results]));
    expect(s.totals.total).toBe(10);
    expect([s.startedAt, s.finishedAt]).toEqual(['2026-05-10T09:00:01Z', '2026-05-10T09:01:00Z']);
    expect(s.schemaVersion).toBe(1);
  });

  test('the outcome and exit code are the gate\'s, under the policy each record carries', () => {
    expect(summaryOf([a], ['x'])).toMatchObject({ outcome: 'pass', exitCode: 0 }); // a holds a pass and a should failure
    expect(summaryOf([{ ...a, options: { ...a.options, strict: true } }], ['x'])).toMatchObject({ outcome: 'fail', exitCode: 1 });
    expect(summaryOf([a, b], ['x', 'y']).exitCode).toBe(1);
    expect(summaryOf([a, b], ['x', 'y']).cells.map((c) => c.outcome)).toEqual(['pass', 'fail']);
  });

  test('no records, or paths that do not match the records, are refused', () => {
    expect(() => summaryOf([], [])).toThrow(/no run records to summarize/);
    expect(() => summaryOf([a], [])).toThrow(/1 records but 0 report paths/);
  });
});
