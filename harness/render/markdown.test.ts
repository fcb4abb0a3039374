import { describe, expect, test } from 'vitest';
import { sampleRecord, withHandedSkips } from '#harness/testing/sampleRecord.ts';
import { summarize } from '#harness/results/index.ts';
import { renderMarkdown } from './markdown.ts';

describe('renderMarkdown', () => {
  const md = renderMarkdown(sampleRecord());

  test('a header with target, model, spec revision, reference time, and the outcome', () => {
    // Labelled as its folder is: the embedded emulator's port changes every run; the Target row keeps its URL.
    expect(md.startsWith('# ❌ FAIL: svc-v4-flash at `emulator`\n')).toBe(true);
    expect(md).toContain('| Target | `http://127.0.0.1:43817` (emulator; messages `http://127.0.0.1:43817/anthropic`) |');
    expect(md).toContain('| Model | `svc-v4-flash` |');
    expect(md).toContain('| Spec revision | `v2026-05` (updated 2026-05-03) |');
    expect(md).toContain('| Reference time | 2026-05-10T09:00:00.000Z (server-date) |');
    expect(md).toContain('**2 must failures** · 1 should failure · 1 advisory failure · 1 error · 2 passed · 1 skipped · 1 unsupported (9 checks)');
  });

  test('a verdict table by area, with totals', () => {
    expect(md).toContain('| Area | fail | flaky | error | unsupported | skip | pass | total |');
    expect(md).toContain('| `response` | 2 | 0 | 0 | 0 | 0 | 1 | 3 |');
    expect(md).toContain('| **all** | **4** | **0** | **1** | **1** | **1** | **2** | **9** |');
  });

  test('failures first, must before should before advisory, each with severity, spec refs, message and a curl block', () => {
    const order = ['## Failures (4)', 'request.temperature.rejects-out-of-range`:', 'stream.framing.ends-with-done`:', 'response.id.has-chatcmpl-prefix`:', 'response.usage.reports-cache-hits`:', '## Errors (1)', '## Skipped and unsupported (2)', '## Passed (2)', '## Tokens and cost'];
    const at = order.map((s) => md.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(md).toContain('**must** (fails the run) · basis: entailed from “Allowed values / bounds” · spec `objects.chat_request.fields.temperature`, `rules.out-of-range-status`');
    expect(md).toContain('**should** (fails the run only with --strict)');
    expect(md).toContain('**advisory** (never fails the run)');
    // The severity is said once, before how the failure counts: never again inside it.
    const heads = [...md.matchAll(/^\*\*(must|should|advisory)\*\* \(([^)]*)\)/gm)];
    expect(heads.length).toBeGreaterThanOrEqual(4);
    for (const [line, severity, counts] of heads) expect(counts, line).not.toMatch(new RegExp(`\\b(${severity}|fails the run\\b.*\\bfails the run)\\b`));
    expect(md).toContain('- expected status 400 or 422 for temperature 2.5, got 200');
    expect(md).toMatch(/Reproduce with \(seed 1337, path 4:1:0\):\n\n {2}```sh\n {2}curl -sS -X POST 'http:\/\/127\.0\.0\.1:43817\/chat\/completions' .*\n {2}```/);
  });

  test('skips and unsupported with their reasons; errors apart, said to fail the run as failures of their severity; tokens and cost', () => {
    expect(md).toContain('| ⏭️ `tools.tool-choice.required-forces-call` | skip (not-applicable) | excluded by --only response.\\* |');
    expect(md).toMatch(/\| ➖ `fim\.completion\.returns-text` \| unsupported \| the target answered 404/);
    expect(md).toContain('| ⚠️ `lifecycle.alias.retires-on-time` | must | HARNESS\\_TIMEOUT: no response within 30000 ms');
    expect(md).toContain('An error fails the run as a failure of its severity would.');
    expect(md).toContain('| 42 | 52 | 0 | 0.0000209 |');
  });

  test('endpoint text cannot inject markup; the outcome follows the exit policy', () => {
    expect(md).not.toContain('<script>');
    expect(md).toContain('Sure! &lt;script&gt;alert(1)&lt;/script&gt; \\]\\]&gt; &amp;');
    const passing = sampleRecord();
    passing.results = passing.results.filter((r) => (r.verdict !== 'fail' && r.verdict !== 'error') || r.severity !== 'must');
    passing.summary = summarize(passing.results);
    expect(renderMarkdown(passing).startsWith('# ✅ PASS')).toBe(true);
    expect(renderMarkdown({ ...passing, options: { ...passing.options, strict: true } }).startsWith('# ❌ FAIL')).toBe(true);
    expect(renderMarkdown({ ...passing, interrupted: true })).toContain('The run was interrupted before every check ran');
  });

  test('the estimate made before the run, the budget and where the time went, when the run had them', () => {
    expect(md).not.toContain('Estimated before the run');
    const withCost = {
      ...sampleRecord(),
      estimate: { method: 'emulator-dry-run' as const, requests: 94, expected: { promptTokens: 1500, completionTokens: 750, costUsd: '0.000382' }, upperBound: { promptTokens: 9000, completionTokens: 400_000, costUsd: '0.542174', uncappedRequests: 0 } },
      budget: { limitUsd: '0.01', reached: false },
      timings: { wallMs: 7600, startupMs: 6000, requestsMs: 1100, judgingMs: 400, reportingMs: 60, otherMs: 40, checks: 157, checksPerSecond: 20.6 },
    };
    const text = renderMarkdown(withCost);
    expect(text).toContain('Estimated before the run: 0.000382 USD for 94 requests (2250 tokens, a dry run against the embedded emulator); at most 0.542174 USD');
    expect(text).toContain('Budget 0.01 USD: not reached.');
    expect(text).toContain('Time (the whole run): 157 checks in 7.6 s (20.6 checks/s): start-up 6.0 s, requests 1.1 s, judging 400 ms, reporting 60 ms, other 40 ms.');
    expect(renderMarkdown({ ...withCost, budget: { limitUsd: '0.0001', reached: true } })).toContain('Budget 0.0001 USD: reached; checks not run are skipped for budget.');
  });
  test('the causes count failing checks, as the headline above them counts them', () => {
    const s = sampleRecord().summary;
    expect(md).toContain(`## Causes: ${s.fail + s.error + s.flaky} failing checks from `);
  });

  test('what the outcome rests on, and the leading reasons the rest was not judged, with the check each was handed to', () => {
    const text = renderMarkdown(withHandedSkips());
    expect(text).toContain('| Judged | 3 of 8 must-checks judged; not judged: 2 inconclusive, 1 not-applicable, 1 unsupported, 1 error |');
    expect(text).toContain('Not judged, the leading reasons (of 5 must-checks not judged):\n\n- 2 inconclusive: the answers carried &lt;no&gt; message (handed to `schema.chat-completion.matches-schema`)\n- 1 not-applicable: excluded by --only response.\\*\n');
    // a record written before judging renders the same, counted from its results
    expect(renderMarkdown(withHandedSkips(true))).toBe(text);
    expect(md).toContain('| Judged | 3 of 6 must-checks judged; not judged: 1 not-applicable, 1 unsupported, 1 error |');
  });
});

