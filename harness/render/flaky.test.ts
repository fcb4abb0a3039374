import { describe, expect, test } from 'vitest';
import { sampleRepeatedRecord } from '#harness/testing/sampleRecord.ts';
import { wellFormedXml } from '#harness/testing/wellFormedXml.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { renderMarkdownSummary } from './markdownSummary.ts';
import { summarize, summaryOf } from '#harness/results/index.ts';

/** The testcase element of a check, open tag to close. */
const testcaseOf = (xml: string, id: string) => new RegExp(`<testcase name="${id.replace(/\./g, '\\.')}"[^>]*?(?:/>|>[\\s\\S]*?</testcase>)`).exec(xml)?.[0] ?? '';

describe('a repeated run (--repeat 3) with a flaky must-check, in every report', () => {
  const FLAKY = 'usage.total.equals-prompt-plus-completion';

  test('JUnit: a flaky check is a <failure type="flaky"> saying how many runs passed, counted in failures; each repeated check has its runs in system-out', () => {
    const xml = renderJunit(sampleRepeatedRecord());
    expect(wellFormedXml(xml)).toEqual([]);
    const flaky = testcaseOf(xml, FLAKY);
    expect(flaky).toContain('<failure message="[must] flaky: 2 of 3 runs passed; the completion: prompt_tokens 12 + completion_tokens 9 = 21, but total_tokens is 22" type="flaky">');
    expect(flaky).toContain('runs: 2 of 3 runs passed · pass@1 0.6667, pass@3 1 · pass^1 0.6667, pass^3 0');
    expect(flaky).toContain('<system-out>repeat: 2 of 3 runs passed · pass@1 0.6667, pass@3 1 · pass^1 0.6667, pass^3 0</system-out>');
    expect(testcaseOf(xml, 'response.body.matches-schema')).toContain('<system-out>repeat: 3 of 3 runs passed · pass@1 1, pass@3 1 · pass^1 1, pass^3 1</system-out>');
    expect(xml).toMatch(/<testsuite name="[^"]* · usage"[^>]* tests="1" failures="1" /);
    // the two must failures and the flaky check: the should and advisory failures do not fail the run
    expect(xml).toMatch(/<testsuites [^>]*tests="10" failures="3" /);
    expect(xml).toContain('<property name="repeat" value="3"/>');
  });

  test('JUnit with --allow-flaky: the flaky check passes, as the exit code does, carrying a <flakyFailure> per failing run (Surefire rerun format)', () => {
    const xml = renderJunit(sampleRepeatedRecord(true));
    expect(wellFormedXml(xml)).toEqual([]);
    const flaky = testcaseOf(xml, FLAKY);
    expect(flaky).not.toContain('<failure');
    expect(flaky).toContain('<flakyFailure message="the completion: prompt_tokens 12 + completion_tokens 9 = 21, but total_tokens is 22" type="flaky"><stackTrace>');
    expect(xml).toMatch(/<testsuite name="[^"]* · usage"[^>]* tests="1" failures="0" /);
    expect(xml).toContain('<property name="allowFlaky" value="true"/>');
  });

  test('Markdown: counted, a Flaky section with the failing run evidence and the runs, said to fail the run (or not, with --allow-flaky)', () => {
    const md = renderMarkdown(sampleRepeatedRecord());
    expect(md).toContain('· 1 error · 1 flaky · 2 passed');
    expect(md).toContain('| `usage` | 0 | 1 | 0 | 0 | 0 | 0 | 1 |');
    expect(md).toContain('seed 1337 · 25 runs · repeat 3');
    expect(md).toContain('> Every check ran 3 times (--repeat); a check that passed in some runs and failed in others is flaky, and counts as a failure of its severity.');
    const section = md.slice(md.indexOf('## Flaky (1)'));
    expect(section).toContain(`### 🔀 \`${FLAKY}\`: prompt\\_tokens + completion\\_tokens = total\\_tokens`);
    expect(section).toContain('**must** (fails the run)');
    expect(section).toContain('Runs: 2 of 3 runs passed · pass@1 0.6667, pass@3 1 · pass^1 0.6667, pass^3 0');
    expect(section).toContain('- the completion: prompt\\_tokens 12 + completion\\_tokens 9 = 21, but total\\_tokens is 22 (at /usage)');
    expect(section).toContain('Reproduce with');
    expect(renderMarkdown(sampleRepeatedRecord(true))).toContain('**must** (does not fail the run: flaky, allowed by --allow-flaky)');
  });

  test('Markdown summary: a flaky column and count; HTML: a flaky badge, its runs and whether it fails the run', () => {
    const r = sampleRepeatedRecord();
    const md = renderMarkdownSummary(summaryOf([r], ['a/report.json']), [r]);
    expect(md).toContain('| must | should | advisory | flaky | error |');
    expect(md).toContain('| `svc-v4-flash` | ❌ FAIL | – | – | 2 | 1 | 1 | 1 | 1 | 2 |');
    const page = renderHtml(r);
    expect(page).toContain(`<li class="check flaky" id="check-${FLAKY}-svc-v4-flash" data-area="usage" data-verdict="flaky">`);
    expect(page).toContain('<span class="badge flaky">flaky</span>');
    expect(page).toContain('<div class="refs">runs: 2 of 3 runs passed · pass@1 0.6667, pass@3 1 · pass^1 0.6667, pass^3 0</div>');
    expect(page).toContain('It passed in some runs and failed in others. This fails the run, as a failure of its severity would.');
    expect(page).toContain('<th scope="col">flaky</th>');
    expect(renderHtml(sampleRepeatedRecord(true))).toContain('With --allow-flaky this does not fail the run.');
  });

  test('the outcome at the top follows the exit policy: a flaky must-check alone fails the run, and with --allow-flaky it does not', () => {
    const onlyFlaky = (allowFlaky: boolean) => {
      const r = sampleRepeatedRecord(allowFlaky);
      const results = r.results.filter((x) => x.verdict === 'flaky');
      return { ...r, results, summary: summarize(results) };
    };
    expect(renderMarkdown(onlyFlaky(false))).toMatch(/^# ❌ FAIL/);
    expect(renderMarkdown(onlyFlaky(true))).toMatch(/^# ✅ PASS/);
    expect(renderHtml(onlyFlaky(false))).toContain('<h1><span class="badge fail">FAIL</span>');
    expect(renderHtml(onlyFlaky(true))).toContain('<h1><span class="badge pass">PASS</span>');
  });
});
