/**
 * Escaping for every output format, in one place. Text from the endpoint (bodies, headers, SSE
 * data, error messages) is hostile until escaped: it may hold markup, `]]>`, or bytes a format
 * cannot carry.
 */

/**
 * Characters XML 1.0 cannot carry at all, not even as a character reference: C0 controls other
 * than tab, LF and CR; U+FFFE and U+FFFF; unpaired surrogates.
 */
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Shows a character no report format should carry raw as `\uXXXX` text, so a control character in
 * a body stays visible evidence instead of breaking the file (or vanishing).
 */
export function showControls(text: string): string {
  return text.replace(NOT_XML_CHAR, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

const HTML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value (quoted) in HTML. */
export function escapeHtml(text: string): string {
  return showControls(text).replace(/[&<>"']/g, (c) => HTML[c]!);
}

const XML_TEXT: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

/** Character data in XML. `>` is escaped too, so `]]>` can never appear. */
export function escapeXmlText(text: string): string {
  return showControls(text).replace(/[&<>\r]/g, (c) => XML_TEXT[c]!);
}

const XML_ATTR: Readonly<Record<string, string>> = {
  ...XML_TEXT,
  '"': '&quot;',
  "'": '&apos;',
  // A parser normalises raw whitespace in an attribute to spaces; references keep it.
  '\t': '&#9;',
  '\n': '&#10;',
};

/** An attribute value in XML (either quote). */
export function escapeXmlAttr(text: string): string {
  return showControls(text).replace(/[&<>\r"'\t\n]/g, (c) => XML_ATTR[c]!);
}

/**
 * Text in Markdown (CommonMark and GitHub's flavour), on one line: markup characters are
 * backslash-escaped, HTML-significant ones become entities, line breaks become spaces. Table
 * cells additionally need mdCell.
 */
export function mdText(text: string): string {
  return showControls(text)
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(/[\\`*_[\]~#]/g, (c) => `\\${c}`)
    .replace(/[&<>]/g, (c) => HTML[c]!);
}

/** An inline code span holding `text` verbatim, whatever backticks it contains. */
export function mdCode(text: string): string {
  const flat = showControls(text).replace(/\r\n|\r|\n/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A fenced code block holding `text` verbatim, whatever fences it contains. */
export function mdFence(text: string, lang = ''): string {
  const shown = showControls(text);
  const longest = Math.max(0, ...[...shown.matchAll(/^ {0,3}(`{3,})/gm)].map((m) => m[1]!.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${shown}\n${fence}`;
}

/** Content of a GitHub table cell: a `|`, even inside a code span, would end the cell. */
export function mdCell(content: string): string {
  return content.replace(/\|/g, '\\|');
}
