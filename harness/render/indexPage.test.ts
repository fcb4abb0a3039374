import { describe, expect, test } from 'vitest';
import { scoreOf, summaryOf } from '#harness/results/index.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { renderIndexPage } from './indexPage.ts';

describe('reports/index.html', () => {
  test('one row per cell: outcome, score, coverage, causes, and a link to the cell\'s report.html; hostile text escaped; no script', () => {
    const a = sampleRecord();
    const b = { ...sampleRecord(), model: 'svc-v4-pro<script>' };
    const records = [{ ...a, score: scoreOf(a).score!, coverage: { covered: 7, total: 11, percent: 64 } }, b];
    const html = renderIndexPage(summaryOf(records, ['127.0.0.1_43817/svc-v4-flash/report.json', '127.0.0.1_43817/svc-v4-pro/report.json']), records);
    expect(html.match(/<tr><td>/g)).toHaveLength(2);
    expect(html).toContain('<a href="127.0.0.1_43817/svc-v4-flash/report.html">report</a>');
    expect(html).toContain(`${records[0]!.score}<svg class="meter"`);
    expect(html).toContain('64%<svg class="meter cov"');
    expect(html).toContain('svc-v4-pro&lt;script&gt;');
    expect(html).not.toMatch(/<script/);
    expect(html).toMatch(/<strong>must<\/strong>/);
  });
});
