import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult, Verdict } from '#harness/core/outcome.ts';
import type { RunRecord } from '#harness/results/index.ts';
import { withResults } from '#harness/testing/outcomeRecords.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { wellFormedXml } from '#harness/testing/wellFormedXml.ts';
import { dateText, renderTrendHtml, renderTrendSvg, trendOf } from './trend.ts';

/** The sample record started at `startedAt`, with some verdicts set (a check set to undefined is dropped). */
function reportAt(startedAt: string, verdicts: Record<string, Verdict | undefined> = {}, model = 'svc-v4-flash'): RunRecord {
  const base = sampleRecord();
  const results = base.results.flatMap((r): CheckResult[] => {
    if (!(r.checkId in verdicts)) return [r];
    const v = verdicts[r.checkId];
    if (v === undefined) return [];
    const { failures: _f, reason: _r, ...rest } = r;
    return [resultOf({ ...rest, verdict: v, ...(v === 'fail' ? { failures: r.failures ?? [{ message: 'failed' }] } : {}) })];
  });
  return { ...withResults(base, results), model, targetModel: model, startedAt, finishedAt: startedAt };
}

const catalogue = () => sampleRecord().results.map((r) => ({ id: r.checkId, specRefs: r.specRefs }));

/** Three days of one cell: the temperature check fixed on day two, the stream check on day three, the id check fixed and then lost. */
function threeReports(): RunRecord[] {
  return [
    reportAt('2026-05-12T08:00:00.000Z', { 'request.temperature.rejects-out-of-range': 'pass', 'stream.framing.ends-with-done': 'pass', 'lifecycle.alias.retires-on-time': 'pass', 'response.usage.reports-cache-hits': undefined }),
    reportAt('2026-05-10T08:00:00.000Z'),
    reportAt('2026-05-11T08:00:00.000Z', { 'request.temperature.rejects-out-of-range': 'pass', 'response.id.has-chatcmpl-prefix': 'pass' }),
  ];
}

describe('trendOf', () => {
  test('one cell, its reports ordered by startedAt, each with score, coverage, outcome and what changed', () => {
    const [cell, ...rest] = trendOf(threeReports(), catalogue());
    expect(rest).toEqual([]);
    expect(cell!.target).toBe('emulator');
    expect(cell!.points.map((p) => p.startedAt)).toEqual(['2026-05-10T08:00:00.000Z', '2026-05-11T08:00:00.000Z', '2026-05-12T08:00:00.000Z']);
    expect(cell!.points.map((p) => p.score)).toEqual([29, 59, 88]);
    expect(cell!.points.map((p) => p.outcome)).toEqual(['fail', 'fail', 'pass']);
    expect(cell!.points[0]!.changes).toEqual([]);
    expect(cell!.points[1]!.changes).toEqual([
      { checkId: 'request.temperature.rejects-out-of-range', before: 'fail', after: 'pass' },
      { checkId: 'response.id.has-chatcmpl-prefix', before: 'fail', after: 'pass' },
    ]);
    expect(cell!.points[2]!.changes).toEqual([
      { checkId: 'lifecycle.alias.retires-on-time', before: 'error', after: 'pass' },
      { checkId: 'response.id.has-chatcmpl-prefix', before: 'pass', after: 'fail' },
      { checkId: 'response.usage.reports-cache-hits', before: 'fail', after: undefined },
      { checkId: 'stream.framing.ends-with-done', before: 'fail', after: 'pass' },
    ]);
    // Day three: the cache check's entry lost (no result), the alias's gained (its error now a pass).
    expect(cell!.points.map((p) => p.coverage.covered)).toEqual([7, 7, 7]);
  });

  test('cells are keyed by target key and model; the same cell from two ports of the emulator is one cell', () => {
    const a = reportAt('2026-05-10T08:00:00.000Z');
    const b = { ...reportAt('2026-05-11T08:00:00.000Z'), target: { ...a.target, baseUrl: 'http://127.0.0.1:9999' } };
    const other = reportAt('2026-05-10T08:00:00.000Z', {}, 'svc-v4-pro');
    const cells = trendOf([other, b, a], catalogue());
    expect(cells.map((c) => `${c.target} ${c.model} ${c.points.length}`)).toEqual(['emulator svc-v4-flash 2', 'emulator svc-v4-pro 1']);
  });
});

describe('trend renderers', () => {
  const cells = trendOf(threeReports(), catalogue());

  test('trend.svg is well-formed XML: a line per series, a point per report, its dates', () => {
    const svg = renderTrendSvg(cells);
    expect(wellFormedXml(svg)).toEqual([]);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg.match(/<circle /g)).toHaveLength(6);
    for (const d of ['2026-05-10', '2026-05-11', '2026-05-12']) expect(svg).toContain(`>${d}</text>`);
    expect(svg).toContain('score, 2026-05-12 08:00 UTC: 88/100');
    expect(renderTrendSvg(cells)).toBe(svg);
  });

  test('trend.html: a table per cell with date, score, coverage, outcome and the changed checks; its chart is well-formed', () => {
    const html = renderTrendHtml(cells);
    expect(html).toContain('<h2>svc-v4-flash at emulator</h2>');
    expect(html).toContain('<code>request.temperature.rejects-out-of-range</code>: <span class="step"><span class="v fail">fail</span> → <span class="v pass">pass</span>');
    expect(html).toContain('<code>response.usage.reports-cache-hits</code>: <span class="step"><span class="v fail">fail</span> → <span class="v none">absent</span>');
    expect(html).toContain('first report');
    expect(html).toMatch(/29\/100[\s\S]*59\/100[\s\S]*88\/100/);
    expect(html).toContain('<span class="outcome pass">PASS</span>');
    expect(html).not.toMatch(/<script|<link|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    const svg = /<svg[\s\S]*?<\/svg>/.exec(html)![0];
    expect(wellFormedXml(svg)).toEqual([]);
  });

  test('hostile text (a model id with markup) is escaped in both', () => {
    const hostile = trendOf([reportAt('2026-05-10T08:00:00.000Z', {}, 'm<script>&"x"')], catalogue());
    expect(wellFormedXml(renderTrendSvg(hostile))).toEqual([]);
    expect(renderTrendHtml(hostile)).not.toContain('<script>');
    expect(dateText('not a date')).toBe('not a date');
  });
});
