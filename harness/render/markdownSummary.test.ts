import { describe, expect, test } from 'vitest';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { scoreOf, summaryOf } from '#harness/results/index.ts';
import { renderHtml, renderJunit, renderMarkdown } from './index.ts';
import { renderMarkdownSummary } from './markdownSummary.ts';
import { wellFormedXml } from '#harness/testing/wellFormedXml.ts';

describe('renderMarkdownSummary', () => {
  const flash = sampleRecord();
  const pro = { ...sampleRecord(), model: 'svc-v4-pro', interrupted: true, usage: { ...sampleRecord().usage, costUsd: '0.5' } };
  const md = renderMarkdownSummary(summaryOf([flash, pro], ['reports/127.0.0.1_43817/svc-v4-flash/report.json', 'reports/127.0.0.1_43817/svc-v4-pro/report.json']), [flash, pro]);

  test('one row per cell, with its outcome, counts, tokens, cost and a link to its report; totals; exit code', () => {
    // one cell failed, the other was interrupted: the run is interrupted, never a plain FAIL or PASS
    expect(md.startsWith('# ⏹️ INTERRUPTED: svc-conformance, 2 cells\n')).toBe(true);
    expect(md).toContain('exit code 130');
    expect(md).toContain('| `emulator` | `svc-v4-flash` | ❌ FAIL | – | – | 2 | 1 | 1 | 0 | 1 | 2 | 1 | 1 | 9 | 94 | 0.0000209 | [report](<reports/127.0.0.1_43817/svc-v4-flash/report.md>) |');
    expect(md).toContain('| `emulator` | `svc-v4-pro` (interrupted) | ⏹️ INTERRUPTED |');
    expect(md).toContain('| **all** |  | **⏹️ INTERRUPTED** |  |  | **4** | **2** | **2** | **0** | **2** | **4** | **2** | **2** | **18** | **188** | **0.5000209** |  |');
    expect(md).toContain('Spec revision `v2026-05`.');
    expect(md).toContain('> Interrupted before every check ran: `svc-v4-pro` at `emulator`.');
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

describe('requests and concurrency in every report format', () => {
  const adaptive = { requests: 236, retries: 2, concurrency: { initial: 4, max: 16, adaptive: true, reached: 16, final: 8, decreases: 1 } };
  const fixed = { requests: 40, retries: 0, concurrency: { initial: 4, max: 4, adaptive: false, reached: 4, final: 4, decreases: 0 } };

  test('report.md, report.html and the JUnit properties say the figures are the target\'s whole run, all models', () => {
    const record = { ...sampleRecord(), traffic: adaptive };
    const line = "Requests (this target's run, all models): 236 (2 retries) · concurrency: reached 16 (adaptive, started at 4, cap 16, ended at 8; came down 1 time)";
    expect(renderMarkdown(record)).toContain(`\n${line}\n`);
    expect(renderHtml(record)).toContain(`<p class="note">${line.replace("'", '&#39;')}</p>`);
    const xml = renderJunit(record);
    expect(wellFormedXml(xml)).toEqual([]);
    expect(xml).toContain('<property name="requests" value="236 (this target&apos;s run, all models)"/>');
    expect(xml).toContain('<property name="retries" value="2"/>');
    expect(xml).toContain('<property name="concurrency" value="reached 16 (adaptive, started at 4, cap 16, ended at 8; came down 1 time)"/>');
    // A fixed limit says so, and nothing of growth.
    expect(renderMarkdown({ ...sampleRecord(), traffic: fixed })).toContain("Requests (this target's run, all models): 40 (0 retries) · concurrency: reached 4 (fixed at 4)");
  });

  test('a record without it (written before it was recorded) shows none of it', () => {
    const record = sampleRecord();
    expect(renderMarkdown(record)).not.toContain('Requests (');
    expect(renderHtml(record)).not.toContain('Requests (');
    expect(renderJunit(record)).not.toContain('name="requests"');
  });

  test('summary.md says it once per target, after the table: not a column repeated in each model\'s row', () => {
    const flash = { ...sampleRecord(), traffic: adaptive };
    const pro = { ...sampleRecord(), model: 'svc-v4-pro', traffic: adaptive };
    const other = { ...sampleRecord(), target: { kind: 'live' as const, baseUrl: 'https://api.example.test', messagesBaseUrl: 'https://api.example.test/anthropic' }, traffic: fixed };
    const records = [flash, pro, other];
    const md = renderMarkdownSummary(summaryOf(records, ['a/report.json', 'b/report.json', 'c/report.json']), records);
    const lines = md.split('\n').filter((l) => l.startsWith('Requests ('));
    expect(lines).toEqual([
      "Requests (this target's run, all models) at `emulator`: 236 (2 retries) · concurrency: reached 16 (adaptive, started at 4, cap 16, ended at 8; came down 1 time)",
      "Requests (this target's run, all models) at `https://api.example.test`: 40 (0 retries) · concurrency: reached 4 (fixed at 4)",
    ]);
    expect(md.indexOf(lines[0]!)).toBeGreaterThan(md.indexOf('| **all** |'));
    expect(renderMarkdownSummary(summaryOf([sampleRecord()], ['a/report.json']), [sampleRecord()])).not.toContain('Requests (');
  });
});
