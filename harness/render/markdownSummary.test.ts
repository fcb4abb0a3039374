import { describe, expect, test } from 'vitest';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { scoreOf, summaryOf } from '#harness/results/index.ts';
import { renderHtml, renderJunit, renderMarkdown } from './index.ts';
import { renderMarkdownSummary } from './markdownSummary.ts';

describe('renderMarkdownSummary', () => {
  const flash = sampleRecord();
  const pro = { ...sampleRecord(), model: 'svc-v4-pro', interrupted: true, usage: { ...sampleRecord().usage, costUsd: '0.5' } };
  const md = renderMarkdownSummary(summaryOf([flash, pro], ['reports/127.0.0.1_43817/svc-v4-flash/report.json', 'reports/127.0.0.1_43817/svc-v4-pro/report.json']), [flash, pro]);

  test('one row per cell, with its outcome, counts, tokens, cost and a link to its report; totals; exit code', () => {
    // one cell failed, the other was interrupted: the run is interrupted, never a plain FAIL or PASS
    expect(md.startsWith('# ⏹️ INTERRUPTED: svc-conformance, 2 cells\n')).toBe(true);
    expect(md).toContain('exit code 130');
    expect(md).toContain('| `http://127.0.0.1:43817` | `svc-v4-flash` | ❌ FAIL | – | – | 2 | 1 | 1 | 0 | 1 | 2 | 1 | 1 | 9 | 94 | 0.0000209 | [report](<reports/127.0.0.1_43817/svc-v4-flash/report.md>) |');
    expect(md).toContain('| `http://127.0.0.1:43817` | `svc-v4-pro` (interrupted) | ⏹️ INTERRUPTED |');
    expect(md).toContain('| **all** |  | **⏹️ INTERRUPTED** |  |  | **4** | **2** | **2** | **0** | **2** | **4** | **2** | **2** | **18** | **188** | **0.5000209** |  |');
    expect(md).toContain('Spec revision `v2026-05`.');
    expect(md).toContain('> Interrupted before every check ran: `svc-v4-pro` at `http://127.0.0.1:43817`.');
  });

  test('a passing run', () => {
    const ok = { ...sampleRecord(), results: sampleRecord().results.filter((r) => r.verdict === 'pass') };
    const s = summaryOf([{ ...ok, summary: { ...ok.summary, ...{ total: 2, pass: 2, fail: 0, skip: 0, unsupported: 0, error: 0, mustFailures: 0, shouldFailures: 0, advisoryFailures: 0 } } }], ['r.json']);
    expect(renderMarkdownSummary(s, [])).toMatch(/^# ✅ PASS: svc-conformance, 1 cell\n/);
  });
});

describe('score and coverage in every report format', () => {
  test('a record with its score and coverage shows them in report.md, report.html, the summary and the JUnit properties; the same verdicts give the same score', () => {
    const base = sampleRecord();
    const record = { ...base, score: scoreOf(base).score!, coverage: { covered: 7, total: 11, percent: 64 } };
    expect(scoreOf(sampleRecord()).score).toBe(record.score);
    expect(renderMarkdown(record)).toContain(`| Score | ${record.score}/100 · coverage 64% (7 of 11 spec entries judged) |`);
    expect(renderHtml(record)).toMatch(/<dt>Score<\/dt><dd>\d+\/100 · coverage 64% .*aria-label="score \d+ of 100"/);
    expect(renderJunit(record)).toContain(`<property name="score" value="${record.score}"/>`);
    expect(renderMarkdownSummary(summaryOf([record], ['reports/x/report.json']), [record])).toContain(`| ❌ FAIL | ${record.score} | 64% |`);
  });
});
