/**
 * Test helper (test code only; no XML parser is installed): a minimal XML 1.0 well-formedness
 * check. It tokenizes the text (declaration, comments, processing instructions, CDATA, tags, text)
 * and reports what a conforming parser would refuse: unbalanced or crossed tags, more than one
 * root, a malformed or duplicate attribute, `<` in an attribute value, a bare `&` or an unknown
 * entity, `]]>` in text, and characters XML 1.0 cannot carry (raw or as a character reference).
 * It does not read a DTD (JUnit files have none) and does not check namespaces.
 */
const NAME = '[A-Za-z_:][A-Za-z0-9_.:-]*';
const DECLARATION = /^<\?xml\s+version\s*=\s*(["'])1\.\d+\1(?:\s+encoding\s*=\s*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:\s+standalone\s*=\s*(["'])(?:yes|no)\3)?\s*\?>/;
const START_TAG = new RegExp(`^<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`);
const ATTRIBUTE = new RegExp(`\\s+(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
const END_TAG = new RegExp(`^</(${NAME})\\s*>`);
const BAD_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** Problems with character data or an attribute value: references, forbidden characters. */
function dataProblems(data: string, where: string): string[] {
  const out: string[] = [];
  if (BAD_CHAR.test(data)) out.push(`${where}: a character XML 1.0 cannot carry`);
  for (const m of data.matchAll(/&([^;&\s]*)(;?)/g)) {
    const [all, ref, semi] = m;
    if (semi !== ';') {
      out.push(`${where}: bare & (${JSON.stringify(all.slice(0, 12))})`);
      continue;
    }
    if (['amp', 'lt', 'gt', 'quot', 'apos'].includes(ref!)) continue;
    const num = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(ref!);
    if (!num) out.push(`${where}: unknown entity &${ref};`);
    else if (!isXmlChar(num[1] === undefined ? Number(num[2]) : parseInt(num[1], 16))) out.push(`${where}: &${ref}; is not a character XML 1.0 allows`);
  }
  return out;
}

/** Every well-formedness problem found, in order; empty when the document is well formed. */
export function wellFormedXml(xml: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let roots = 0;
  let pos = 0;
  const decl = DECLARATION.exec(xml);
  if (decl) pos = decl[0].length;
  else if (xml.startsWith('<?xml')) problems.push('malformed XML declaration');

  while (pos < xml.length) {
    const rest = xml.slice(pos);
    const at = `at offset ${pos}`;
    if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->', 4);
      if (end < 0) return [...problems, `${at}: unterminated comment`];
      if (rest.slice(4, end).includes('--')) problems.push(`${at}: -- inside a comment`);
      pos += end + 3;
    } else if (rest.startsWith('<![CDATA[')) {
      if (stack.length === 0) problems.push(`${at}: CDATA outside the root element`);
      const end = rest.indexOf(']]>');
      if (end < 0) return [...problems, `${at}: unterminated CDATA section`];
      if (BAD_CHAR.test(rest.slice(9, end))) problems.push(`${at}: a character XML 1.0 cannot carry in CDATA`);
      pos += end + 3;
    } else if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>');
      if (end < 0) return [...problems, `${at}: unterminated processing instruction`];
      if (/^<\?xml[\s?]/i.test(rest)) problems.push(`${at}: XML declaration not at the start`);
      pos += end + 2;
    } else if (rest.startsWith('</')) {
      const m = END_TAG.exec(rest);
      if (!m) return [...problems, `${at}: malformed end tag ${JSON.stringify(rest.slice(0, 30))}`];
      const open = stack.pop();
      if (open !== m[1]) return [...problems, `${at}: </${m[1]}> closes ${open === undefined ? 'nothing' : `<${open}>`}`];
      pos += m[0].length;
    } else if (rest.startsWith('<')) {
      const m = START_TAG.exec(rest);
      if (!m) return [...problems, `${at}: malformed tag ${JSON.stringify(rest.slice(0, 40))}`];
      const [all, name, attrs, selfClosing] = m;
      if (stack.length === 0 && ++roots > 1) problems.push(`${at}: a second root element <${name}>`);
      const seen = new Set<string>();
      for (const a of attrs!.matchAll(ATTRIBUTE)) {
        const value = a[2] ?? a[3] ?? '';
        if (seen.has(a[1]!)) problems.push(`${at}: <${name}> repeats attribute ${a[1]}`);
        seen.add(a[1]!);
        if (value.includes('<')) problems.push(`${at}: < in attribute ${a[1]} of <${name}>`);
        problems.push(...dataProblems(value, `${at} <${name} ${a[1]}>`));
      }
      if (selfClosing !== '/') stack.push(name!);
      pos += all.length;
    } else {
      const end = rest.indexOf('<');
      const data = end < 0 ? rest : rest.slice(0, end);
      if (stack.length === 0 && data.trim() !== '') problems.push(`${at}: text outside the root element`);
      if (data.includes(']]>')) problems.push(`${at}: ]]> in text`);
      problems.push(...dataProblems(data, at));
      pos += data.length;
    }
  }
  if (stack.length > 0) problems.push(`unclosed <${stack.join('>, <')}>`);
  if (roots === 0) problems.push('no root element');
  return problems;
}
