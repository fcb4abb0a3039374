import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { HOSTILE_TEXT, sampleRecord, withHandedSkips } from '#harness/testing/sampleRecord.ts';
import { summarize } from '#harness/results/index.ts';
import { renderHtml } from './html.ts';

/** The tags and attributes the renderer writes; anything else in a page came from the data. */
const TAGS = new Set('html head meta title style body header h1 h2 h4 span code dl dt dd p strong main section table thead tbody tfoot tr th td a nav div button ol li details summary pre footer script'.split(' '));
const ATTRIBUTES = new Set('lang charset name content http-equiv class id href scope title type role hidden aria-label aria-pressed aria-live data-area data-verdict data-key data-value'.split(' '));

/** Every tag outside <style> and <script> (start or end), with its attribute names, parsed leniently as a browser would. */
function tags(page: string): { tag: string; attributes: string[] }[] {
  const markup = page.replace(/<style>[\s\S]*?<\/style>/g, '<style></style>').replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');
  return [...markup.matchAll(/<\/?([a-zA-Z][^\s/>]*)([^>]*)>/g)].map((m) => ({
    tag: m[1]!.toLowerCase(),
    attributes: [...m[2]!.matchAll(/([^\s"'=<>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g)].map((a) => a[1]!.toLowerCase()),
  }));
}

test('the tag scan itself catches injected markup', () => {
  expect(tags('<p class="a">x</p><img src=x onerror=alert(1)>')).toEqual([
    { tag: 'p', attributes: ['class'] },
    { tag: 'p', attributes: [] },
    { tag: 'img', attributes: ['src', 'onerror'] },
  ]);
});

function inline(page: string, tag: 'style' | 'script'): string {
  return new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(page)![1]!;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

describe('renderHtml', () => {
  const page = renderHtml(sampleRecord());

  test('one self-contained file: no external asset, a CSP that allows only its own style and script', () => {
    expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page).not.toMatch(/<link\b/i);
    expect(page).not.toMatch(/<script\b[^>]*\bsrc\s*=/i);
    expect(page).not.toMatch(/<(?:img|iframe|object|embed|audio|video|source)\b/i);
    expect(page).not.toMatch(/\b(?:src|href|action)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(inline(page, 'style')).not.toMatch(/@import|url\(/i);
    expect(page.match(/<style\b/g)).toHaveLength(1);
    expect(page.match(/<script\b/gi)).toHaveLength(1);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)![1]!.replace(/&#39;/g, "'");
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${sha256(inline(page, 'style'))}'; script-src 'sha256-${sha256(inline(page, 'script'))}'; base-uri 'none'; form-action 'none'`);
  });

  test('each check shows why it has its severity (its basis)', () => {
    expect(page).toContain('<div class="refs">basis: entailed from “Allowed values / bounds”</div>');
  });

  test('a summary matrix of area x verdict at the top, with totals', () => {
    const matrix = /<table class="matrix">[\s\S]*?<\/table>/.exec(page)![0];
    expect(page.indexOf('<table class="matrix">')).toBeLessThan(page.indexOf('<ol class="checks">'));
    expect(matrix).toContain('<thead><tr><th scope="col">area</th><th scope="col">fail</th><th scope="col">flaky</th><th scope="col">error</th><th scope="col">unsupported</th><th scope="col">skip</th><th scope="col">pass</th><th scope="col">total</th></tr></thead>');
    expect(matrix).toContain('<td class="fail"><a href="#checks" data-area="response" data-verdict="fail">2</a></td>');
    expect(matrix).toContain('<tfoot><tr><th scope="row"><a href="#checks" data-area="" data-verdict="">all</a></th><td class="fail"><a href="#checks" data-area="" data-verdict="fail">4</a></td>');
  });

  test('filters by area and verdict, hidden until the script shows them; every check listed without JS, failures first', () => {
    expect(page).toContain('<nav id="filters" hidden aria-label="Filter the checks">');
    for (const area of ['error', 'fim', 'lifecycle', 'request', 'response', 'stream', 'tools']) expect(page).toContain(`data-key="area" data-value="${area}"`);
    for (const verdict of ['fail', 'error', 'unsupported', 'skip', 'pass']) expect(page).toContain(`data-key="verdict" data-value="${verdict}"`);
    const rows = [...page.matchAll(/<li class="check (\w+)"[^>]*data-verdict="(\w+)">/g)];
    expect(rows).toHaveLength(9);
    expect(rows.map((r) => r[2])).toEqual(['fail', 'fail', 'fail', 'fail', 'error', 'unsupported', 'skip', 'pass', 'pass']);
    expect(page).not.toMatch(/<li[^>]*\bhidden\b/);
  });

  test('failures expand (<details>) to evidence: request, response as pretty JSON, SSE events, reproducer', () => {
    expect(page.match(/<details class="failure">/g)).toHaveLength(4);
    const first = /<details class="failure"><summary>expected status 400[\s\S]*?<\/details>/.exec(page)![0];
    expect(first).toContain('<h4>Request</h4>\n<pre>POST http://127.0.0.1:43817/chat/completions</pre>');
    expect(first).toContain('<pre class="json">{\n  &quot;model&quot;: &quot;svc-v4-flash&quot;,\n  &quot;temperature&quot;: 2.5,');
    expect(first).toContain('<h4>Response <span class="where">200 · 41 ms · 1 attempt</span></h4>');
    expect(first).toContain('<pre class="curl"><code>curl -sS -X POST &#39;http://127.0.0.1:43817/chat/completions&#39;');
    expect(first).toContain('seed 1337, path 4:1:0');
    expect(first).toContain('Bearer [REDACTED]');
    const stream = /<details class="failure"><summary>the stream closed[\s\S]*?<\/details>/.exec(page)![0];
    expect(stream).toContain('<h4>Events (4)</h4>');
    expect(stream).toContain('<li><span class="at">+3 ms</span> <code>: keep-alive</code></li>');
    expect(stream).toContain('<li><span class="at">+12 ms</span> <code>data: {&quot;id&quot;:&quot;chatcmpl-9&quot;');
    expect(stream).toContain('fixture fixtures/127.0.0.1/svc-v4-flash/stream.framing.ends-with-done.json');
  });

  test('a body holding <script>, ]]> and & is escaped: it shows as text and cannot run', () => {
    expect(HOSTILE_TEXT).toContain('<script>alert(1)</script>');
    expect(page).not.toContain('alert(1)</script>');
    expect(page).toContain('<pre class="text">Sure! &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; &quot;quoted&quot; &#39;single&#39; \\u0001bell\\u0007 done</pre>');
    expect(page).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    for (const t of tags(page)) {
      expect(TAGS, `<${t.tag}>`).toContain(t.tag);
      for (const a of t.attributes) expect(ATTRIBUTES, `${a} on <${t.tag}>`).toContain(a);
    }
  });

  test('hostile ids, areas, titles and headers cannot open a tag or an attribute', () => {
    const r = sampleRecord();
    r.results[0]!.area = 'x" onmouseover="alert(1)';
    r.results[0]!.title = '</summary><img src=x onerror=alert(1)>';
    r.results[1]!.checkId = '"><script>alert(2)</script>';
    r.results[1]!.failures![0]!.evidence!.response!.headers['x-evil'] = '<style>body{display:none}</style>';
    r.results[1]!.failures![0]!.evidence!.request.url = 'javascript:alert(3)';
    r.model = '</title><script>alert(4)</script>';
    const evil = renderHtml(r);
    expect(evil.match(/<script\b/gi)).toHaveLength(1);
    expect(evil.match(/<style\b/gi)).toHaveLength(1);
    for (const t of tags(evil)) {
      expect(TAGS, `<${t.tag}>`).toContain(t.tag);
      for (const a of t.attributes) expect(ATTRIBUTES, `${a} on <${t.tag}>`).toContain(a);
    }
    expect(evil).toContain('data-area="x&quot; onmouseover=&quot;alert(1)"');
  });

  test('a passing record, an interrupted one, and one with no results', () => {
    const r = sampleRecord();
    r.results = r.results.filter((x) => x.verdict === 'pass');
    r.summary = summarize(r.results);
    expect(renderHtml(r)).toContain('<span class="badge pass">PASS</span>');
    expect(renderHtml({ ...r, interrupted: true })).toContain('The run was interrupted');
    expect(renderHtml({ ...r, results: [], summary: summarize([]) })).toContain('<h2>Checks (0)</h2>');
  });

  test('what the outcome rests on, and the leading reasons the rest was not judged, among the facts; escaped; a record written before it renders the same', () => {
    const judged = renderHtml(withHandedSkips());
    expect(judged).toContain('<dt>Judged</dt><dd>3 of 8 must-checks judged; not judged: 2 inconclusive, 1 not-applicable, 1 unsupported, 1 error<ol class="reasons"><li>2 inconclusive: the answers carried &lt;no&gt; message <span class="where">(handed to <code>schema.chat-completion.matches-schema</code>)</span></li>');
    expect(renderHtml(withHandedSkips(true))).toBe(judged);
    for (const t of tags(judged)) expect(TAGS, `<${t.tag}>`).toContain(t.tag);
  });
});

