import { describe, expect, test } from 'vitest';
import { summaryOf } from '#harness/results/index.ts';
import { loadFiguresOf } from '#harness/results/loadFigures.ts';
import type { RunRecord } from '#harness/results/runRecord.ts';
import { HOSTILE_TEXT, sampleRecord } from '#harness/testing/sampleRecord.ts';
import { madeUpLoadRun, rampLoadRun } from '#harness/testing/sampleLoad.ts';
import { renderHtml, renderMarkdown, RENDERERS } from './index.ts';
import { renderIndexPage } from './indexPage.ts';
import { loadChart, niceTicks } from './loadChart.ts';
import { loadLine } from './loadView.ts';
import { renderMarkdownSummary } from './markdownSummary.ts';

const withLoad = (over: Partial<RunRecord> = {}): RunRecord => ({ ...sampleRecord(), options: { ...sampleRecord().options, load: 4 }, load: loadFiguresOf(madeUpLoadRun()), ...over });

describe('report.md: the steps of the load phase', () => {
  test('a table of the steps, the recovery, what the columns mean; information, not verdicts', () => {
    const md = renderMarkdown(withLoad());
    const section = md.slice(md.indexOf('## Under load'), md.indexOf('## Failures'));
    expect(section).toContain('The load phase ramped the requests in flight to 4 against svc-v4-flash (1, 2, 4): 9 requests. These figures are information, not verdicts');
    expect(section).toContain(
      [
        '| in flight | requests | 200 | 429 | 503 | other | TTFT p50 (ms) | TTFT p95 (ms) | TTFT p99 (ms) | chunk gap p95 (ms) | tokens/s per stream | tokens/s in all | wall time |',
        '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
        '| 1 | 2 | 2 | 0 | 0 | 0 | 100 | 100 | 100 | 20 | 50 | 60 | 300 ms |',
        '| 2 | 4 | 1 | 1 | 1 | 1 | 120 | 120 | 120 | 30 | 50 | 20 | 250 ms |',
        '| 4 | 3 | 2 | 0 | 0 | 1 | 200 | 300 | 300 | 60 | 100 | 46 | 500 ms |',
      ].join('\n'),
    );
    expect(section).toContain('After the peak it answered 200 again after 150 ms (within 2.0 s, 1 try).');
    expect(section).toContain('TTFT: time to first token of the streams');
  });

  test('– where a step had nothing to measure; the early end and a failed recovery are said; no section without a load phase', () => {
    const base = loadFiguresOf(madeUpLoadRun());
    const load = { ...base, steps: [{ ...base.steps[0]!, ttftMs: { p50: null, p95: null, p99: null }, wallMs: null }], recovery: { windowMs: 2000, recoveredMs: null, tries: 3 }, endedEarly: 'the run was stopped (SIGINT)' };
    const md = renderMarkdown(withLoad({ load }));
    expect(md).toContain('| 1 | 2 | 2 | 0 | 0 | 0 | – | – | – | 20 | 50 | 60 | – |');
    expect(md).toContain('After the peak it did not answer 200 again within 2.0 s (3 tries).');
    expect(md).toContain('The phase ended before its last step: the run was stopped (SIGINT).');
    expect(renderMarkdown(sampleRecord())).not.toContain('Under load');
  });
});

describe('summary.md: a line per cell with a load phase', () => {
  test('up to N in flight, the requests and refusals, TTFT p95 and throughput at the peak, the recovery', () => {
    expect(loadLine(loadFiguresOf(madeUpLoadRun()))).toBe(
      'up to 4 in flight, 9 requests, 5 answered 200, 1 refused 429, 1 refused 503, 2 other (another status or no answer), TTFT p95 300 ms at 4, 46 tokens/s in all at 4, 200 again 150 ms after the peak',
    );
    const flash = withLoad();
    const pro = { ...sampleRecord(), model: 'svc-v4-pro' };
    const md = renderMarkdownSummary(summaryOf([flash, pro], ['a/report.json', 'b/report.json']), [flash, pro]);
    expect(md.match(/^Load .*$/gm)).toEqual([`Load (information, not a verdict) on \`svc-v4-flash\` at \`emulator\`: ${loadLine(flash.load!)}.`]);
  });
});

describe('the chart', () => {
  const ramp = (model: string, slow: number) => loadFiguresOf(rampLoadRun(model, 16, { ttftMs: (n) => slow * (10 + n), gapMs: () => 20, refused: () => 0 }));

  test('report.html: its model\'s lines, axes, ticks at the steps, a title and a description; the table beside it', () => {
    const html = renderHtml({ ...withLoad(), load: ramp('svc-v4-flash', 10) });
    const section = html.slice(html.indexOf('<section id="load">'), html.indexOf('</section>', html.indexOf('<section id="load">')));
    expect(section.match(/<path class="series[^"]*" data-series="svc-v4-flash"/g)).toHaveLength(3);
    expect(section).toMatch(/<svg [^>]*role="img" aria-labelledby="load-chart-title load-chart-desc"/);
    expect(section).toContain('<title id="load-chart-title">Under load: time to first token and output throughput against requests in flight</title>');
    expect(section).toMatch(/<desc id="load-chart-desc">svc-v4-flash: at 1 in flight, time to first token p50 \d+ ms/);
    expect(section.match(/>requests in flight<\/text>/g)).toHaveLength(2);
    for (const t of ['1', '4', '8', '16']) expect(section).toContain(`text-anchor="middle">${t}</text>`);
    expect(section.match(/<tr><td>/g)).toHaveLength(4);
    // No style attribute (the page's CSP forbids them), no script, nothing fetched.
    expect(section).not.toMatch(/ style=|<script|href=|xlink/);
  });

  test('index.html: one chart, a line per cell, the base URL in the legend when the cells are of several targets', () => {
    const a = { ...sampleRecord(), load: ramp('svc-v4-flash', 10) };
    const b = { ...sampleRecord(), model: 'svc-v4-pro', load: ramp('svc-v4-pro', 20) };
    const c = { ...sampleRecord(), model: 'svc-v4-mini' };
    const html = renderIndexPage(summaryOf([a, b, c], ['a/report.json', 'b/report.json', 'c/report.json']), [a, b, c]);
    expect(html.match(/<figure class="load-chart">/g)).toHaveLength(1);
    expect([...new Set([...html.matchAll(/<path class="series[^"]*" data-series="([^"]+)"/g)].map((m) => m[1]))]).toEqual(['svc-v4-flash', 'svc-v4-pro']);
    const elsewhere = { ...b, target: { kind: 'live' as const, baseUrl: 'https://b.test', messagesBaseUrl: 'https://b.test/anthropic' } };
    const two = renderIndexPage(summaryOf([a, elsewhere], ['a/report.json', 'b/report.json']), [a, elsewhere]);
    expect(two).toContain('data-series="svc-v4-pro at https://b.test"');
    expect(renderIndexPage(summaryOf([c], ['c/report.json']), [c])).not.toContain('<figure');
  });

  test('the legend draws p50 and p95 as the lines are drawn: in the series\' colours, solid and dashed, never in the axes\' grey', () => {
    const colours = (svg: string, of: RegExp) => [...svg.matchAll(of)].map((m) => m[1]);
    for (const series of [[{ label: 'a', load: ramp('a', 10) }], [{ label: 'a', load: ramp('a', 10) }, { label: 'b', load: ramp('b', 20) }]]) {
      const svg = loadChart(series);
      const key = svg.slice(svg.indexOf('<g class="legend-key">'), svg.indexOf('</g>', svg.indexOf('<g class="legend-key">')));
      const drawn = (figure: string) => colours(svg, new RegExp(`<path class="series[^"]*" data-series="[^"]+" data-figure="${figure}" stroke="([^"]+)"`, 'g'));
      expect(key).not.toContain('class="axis"');
      expect(colours(key, /<line class="key-line" [^>]*stroke="([^"]+)"/g)).toEqual(drawn('ttft-p50'));
      expect(colours(key, /<line class="key-line p95" [^>]*stroke="([^"]+)"/g)).toEqual(drawn('ttft-p95'));
    }
  });

  test('hostile text is escaped everywhere it goes: legend, title of each point, description', () => {
    const svg = loadChart([{ label: HOSTILE_TEXT, load: ramp('m', 10) }]);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).not.toMatch(/[\u0001\u0007]/);
  });

  test('a step without the figure breaks the line rather than drawing it at zero; nothing to draw, no chart', () => {
    const load = ramp('m', 10);
    const gap = { ...load, steps: load.steps.map((s, i) => (i === 1 ? { ...s, ttftMs: { p50: null, p95: null, p99: null } } : s)) };
    const p50 = /data-figure="ttft-p50" stroke="[^"]+" d="([^"]+)"/.exec(loadChart([{ label: 'm', load: gap }]))![1]!;
    expect(p50.match(/M/g)).toHaveLength(2);
    expect(loadChart([{ label: 'm', load: { ...load, steps: [] } }])).toBe('');
  });

  test('round ticks from 0: 1, 2, 2.5 or 5 times a power of ten, 4 to 6 of them', () => {
    expect(niceTicks(527)).toEqual([0, 200, 400, 600]);
    expect(niceTicks(1320)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(46)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(niceTicks(0.3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });
});

describe('every renderer, given a record with load figures', () => {
  test.each(Object.entries(RENDERERS))('%s is pure: same output twice, the record untouched', (_name, { render }) => {
    const record = withLoad();
    const first = render(record);
    expect(render(record)).toBe(first);
    expect(record).toEqual(withLoad());
  });
});
