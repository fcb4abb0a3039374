import { describe, expect, test } from 'vitest';
import { scoreOf, summaryOf } from '#harness/results/index.ts';
import { sampleRecord, withHandedSkips } from '#harness/testing/sampleRecord.ts';
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

  test('each target\'s requests and concurrency once, under the table, escaped; none when the records lack them', () => {
    const traffic = { requests: 236, retries: 2, concurrency: { initial: 4, max: 16, adaptive: true, reached: 16, final: 16, decreases: 0 } };
    const records = [{ ...sampleRecord(), traffic }, { ...sampleRecord(), model: 'svc-v4-pro', traffic }];
    const html = renderIndexPage(summaryOf(records, ['a/report.json', 'b/report.json']), records);
    expect(html.match(/Requests \(/g)).toHaveLength(1);
    expect(html).toContain('<p class="muted">Requests (this target&#39;s run, all models) at emulator: 236 (2 retries) · concurrency: reached 16 (adaptive, started at 4, cap 16, ended at 16; came down 0 times)</p>');
    expect(renderIndexPage(summaryOf([sampleRecord()], ['a/report.json']), [sampleRecord()])).not.toContain('Requests (');
  });

  test('each cell says what it was judged on and the leading reasons the rest was not, with the check a defect was handed to; escaped', () => {
    const records = [withHandedSkips(), { ...sampleRecord(), model: 'svc-v4-pro' }];
    const html = renderIndexPage(summaryOf(records, ['a/report.json', 'b/report.json']), records);
    expect(html).toContain('<th>Judged</th>');
    expect(html).toContain('<td>3 of 8 must-checks judged; not judged: 2 inconclusive, 1 not-applicable, 1 unsupported, 1 error<ol class="reasons"><li>2 inconclusive: the answers carried &lt;no&gt; message <span class="muted">(handed to <code>schema.chat-completion.matches-schema</code>)</span></li><li>1 not-applicable: excluded by --only response.*</li><li>1 unsupported: the target answered 404 with a well-formed error for POST /beta/completions</li></ol></td>');
    expect(html).toContain('<td>3 of 6 must-checks judged; not judged: 1 not-applicable, 1 unsupported, 1 error<ol class="reasons">');
  });

  test('a summary and record written before judging still render it, counted from the record\'s results', () => {
    const old = withHandedSkips(true);
    const summary = summaryOf([old], ['a/report.json']);
    for (const c of summary.cells) delete c.judging;
    expect(renderIndexPage(summary, [old])).toContain('<td>3 of 8 must-checks judged; not judged: 2 inconclusive, 1 not-applicable, 1 unsupported, 1 error<ol class="reasons"><li>2 inconclusive: the answers carried &lt;no&gt; message');
    // a cell with neither its judging nor its record shows none
    expect(renderIndexPage(summary, [])).toContain('<td><span class="muted">–</span></td>');
  });
});

