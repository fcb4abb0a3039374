import { describe, expect, test } from 'vitest';
import { escapeHtml, escapeXmlAttr, escapeXmlText, mdCell, mdCode, mdFence, mdText, showControls } from './escape.ts';

describe('escaping', () => {
  test('characters no format can carry are shown as \\uXXXX; tab, LF, CR and astral characters pass', () => {
    expect(showControls('a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf')).toBe('a\\u0000b\\u0008c\\u000Bd\\u001Fe\\uFFFEf');
    expect(showControls('\t\n\r😀é')).toBe('\t\n\r😀é');
    expect(showControls('lone \uD800 and \uDC00')).toBe('lone \\uD800 and \\uDC00');
  });

  test('HTML: markup and quotes', () => {
    expect(escapeHtml(`<script>alert(1)</script> & "x" 'y'`)).toBe('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; &#39;y&#39;');
  });

  test('XML text: ]]> cannot survive, CR is kept as a reference', () => {
    expect(escapeXmlText('a]]>b & <c>\r\n')).toBe('a]]&gt;b &amp; &lt;c&gt;&#13;\n');
  });

  test('XML attributes: quotes and whitespace kept as references', () => {
    expect(escapeXmlAttr(`"'\t\n<&>`)).toBe('&quot;&apos;&#9;&#10;&lt;&amp;&gt;');
  });

  test('Markdown text: markup escaped, one line', () => {
    expect(mdText('a *b* _c_ [d](e) `f` <g> & #h\nnext')).toBe('a \\*b\\* \\_c\\_ \\[d\\](e) \\`f\\` &lt;g&gt; &amp; \\#h next');
  });

  test('Markdown code: any backticks, any fence', () => {
    expect(mdCode('plain')).toBe('`plain`');
    expect(mdCode('a `b` c')).toBe('``a `b` c``');
    expect(mdCode('`edge`')).toBe('`` `edge` ``');
    expect(mdFence('x\n```\ny', 'sh')).toBe('````sh\nx\n```\ny\n````');
    expect(mdCell('a | b')).toBe('a \\| b');
  });
});
