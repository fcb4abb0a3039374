import { describe, expect, test } from 'vitest';
import { HOSTILE_TEXT, SAMPLE_BASE_URL, sampleRecord } from '#harness/testing/sampleRecord.ts';
import { summarize } from '#harness/results/index.ts';
import { renderJunit } from './junit.ts';
import { wellFormedXml } from '#harness/testing/wellFormedXml.ts';

/** Elements by name with their attributes (the document is checked well-formed first). */
function elements(xml: string, name: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${name}((?:\\s+[\\w.:-]+="[^"]*")*)\\s*/?>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w.:-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  );
}

describe('renderJunit', () => {
  const xml = renderJunit(sampleRecord());

  test('is well-formed XML (checked by wellFormedXml: saxes, a conforming XML parser)', () => {
    expect(wellFormedXml(xml)).toEqual([]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
  });

  test('one testsuite per area of the cell, with counts of what fails the run; one testcase per check named by its id', () => {
    const suites = elements(xml, 'testsuite');
    const cell = 'svc-v4-flash at emulator';
    expect(suites.map((s) => s['name'])).toEqual(['error', 'fim', 'lifecycle', 'request', 'response', 'stream', 'tools'].map((a) => `${cell} · ${a}`));
    // response holds a should and an advisory failure: neither fails the run, so neither is a <failure>
    expect(suites.find((s) => s['name'] === `${cell} · response`)).toMatchObject({ tests: '3', failures: '0', errors: '0', skipped: '0' });
    expect(elements(xml, 'testsuites')[0]).toMatchObject({ tests: '9', failures: '2', errors: '1', skipped: '2' });
    const cases = elements(xml, 'testcase');
    expect(cases.map((c) => c['name']).sort()).toEqual(sampleRecord().results.map((r) => r.checkId).sort());
    expect(cases.find((c) => c['name'] === 'request.temperature.rejects-out-of-range')).toEqual({
      name: 'request.temperature.rejects-out-of-range',
      classname: 'emulator.svc-v4-flash.request',
      time: '0.042',
    });
  });

  test('a should or advisory failure is a passing testcase saying in <system-out> what failed and why it does not count; with --strict a should failure is a <failure>', () => {
    const should = /<testcase name="response\.id\.has-chatcmpl-prefix"[^>]*>\s*<system-out>([\s\S]*?)<\/system-out>/.exec(xml)!;
    expect(should[1]).toMatch(/^fail \[should\], fails the run only with --strict\n/);
    expect(xml).toMatch(/<testcase name="response\.usage\.reports-cache-hits"[^>]*>\s*<system-out>fail \[advisory\], never fails the run/);
    const strict = renderJunit({ ...sampleRecord(), options: { ...sampleRecord().options, strict: true } });
    expect(elements(strict, 'failure').map((f) => f['type'])).toEqual(['must', 'should', 'must']);
  });

  test('the junit files of several cells never hold two testcases of the same classname and name', () => {
    const cells = ['svc-v4-flash', 'svc-v4-pro'].flatMap((model) =>
      [{ kind: 'emulator' as const, baseUrl: SAMPLE_BASE_URL }, { kind: 'live' as const, baseUrl: 'https://api.example.com/v1' }].map((t) => ({ ...sampleRecord(), model, target: { ...t, messagesBaseUrl: `${t.baseUrl}/anthropic` } })),
    );
    const pairs = cells.flatMap((r) => elements(renderJunit(r), 'testcase').map((c) => `${c['classname']} ${c['name']}`));
    expect(pairs).toHaveLength(4 * sampleRecord().results.length);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  test('fail → <failure> typed by severity with evidence and reproducer; skip/unsupported → <skipped message>; error → <error>', () => {
    expect(elements(xml, 'failure').map((f) => f['type'])).toEqual(['must', 'must']); // suites by area: request, stream
    const failure = /<testcase name="request\.temperature[^>]*>\s*<failure message="([^"]*)" type="must">([\s\S]*?)<\/failure>/.exec(xml)!;
    expect(failure[1]).toBe('[must] expected status 400 or 422 for temperature 2.5, got 200 — POST http://127.0.0.1:43817/chat/completions (model svc-v4-flash)');
    expect(failure[2]).toContain('spec: objects.chat_request.fields.temperature, rules.out-of-range-status');
    expect(failure[2]).toContain('basis: entailed from “Allowed values / bounds”');
    expect(failure[2]).toContain('POST http://127.0.0.1:43817/chat/completions → 200 (41 ms)');
    expect(failure[2]).toContain('Reproduce with:\ncurl -sS -X POST');
    expect(failure[2]).toContain('seed 1337, path 4:1:0');
    expect(xml).toContain('events (4):\n  +3 ms : keep-alive\n  +5 ms data: {"id":"chatcmpl-9"');
    expect(elements(xml, 'skipped').map((s) => s['message']!.slice(0, 30))).toEqual(['unsupported: the target answer', 'not-applicable: excluded by --']);
    expect(elements(xml, 'error')).toEqual([{ message: expect.stringMatching(/^HARNESS_TIMEOUT: /) as string, type: 'harness-error' }]);
  });

  test('hostile text is escaped in attributes and in text: markup, ]]>, &, quotes, control characters', () => {
    expect(HOSTILE_TEXT).toContain('<script>');
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain(']]>');
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    // in an attribute (the unsupported reason) and in text (the advisory failure's response)
    expect(xml).toContain('Sure! &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; &quot;quoted&quot; &apos;single&apos; \\u0001bell\\u0007 done"');
    expect(xml).toContain('response body:\nSure! &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; "quoted" \'single\' \\u0001bell\\u0007 done');
  });

  test('stays well-formed with hostile ids, areas and line breaks in attributes; no results at all', () => {
    const r = sampleRecord();
    r.results[0]!.area = 'a"<&>\'';
    r.results[0]!.checkId = 'x"]]><y&';
    r.results[1]!.failures![0]!.message = 'line one\nline\ttwo\r\n\u000Cthree';
    r.target.baseUrl = 'http://h/?a=1&b=<2>';
    const hostile = renderJunit(r);
    expect(wellFormedXml(hostile)).toEqual([]);
    expect(hostile).toContain('message="[must] line one&#10;line&#9;two&#13;&#10;\\u000Cthree"');
    const empty = { ...sampleRecord(), results: [], summary: summarize([]) };
    expect(wellFormedXml(renderJunit(empty))).toEqual([]);
  });
});
