import { describe, expect, test } from 'vitest';
import { wellFormedXml } from './wellFormedXml.ts';

describe('wellFormedXml (the test helper the JUnit tests rely on)', () => {
  test('accepts well-formed documents', () => {
    expect(wellFormedXml('<?xml version="1.0" encoding="UTF-8"?>\n<a x="1" y=\'&lt;2&gt;\'><b/><!-- c --><c>&amp; &#10; &#x1F600;</c><![CDATA[ <raw> ]]></a>\n')).toEqual([]);
  });

  test.each([
    ['unbalanced', '<a><b></a>', /<\/a> closes <b>/],
    ['unclosed', '<a><b>', /unclosed <a>, <b>/],
    ['two roots', '<a/><b/>', /a second root element/],
    ['text outside the root', '<a/>x', /text outside the root/],
    ['bare ampersand in text', '<a>fish & chips</a>', /bare &/],
    ['bare ampersand in an attribute', '<a m="a & b"/>', /bare &/],
    ['unknown entity', '<a>&nbsp;</a>', /unknown entity &nbsp;/],
    ['< in an attribute', '<a m="<"/>', /< in attribute m/],
    ['unquoted attribute', '<a m=1/>', /malformed tag/],
    ['duplicate attribute', '<a m="1" m="2"/>', /repeats attribute m/],
    [']]> in text', '<a>x]]>y</a>', /\]\]> in text/],
    ['a raw control character', '<a>\u0001</a>', /cannot carry/],
    ['a reference to a control character', '<a>&#1;</a>', /&#1; is not a character/],
    ['a declaration not first', ' <?xml version="1.0"?><a/>', /not at the start/],
    ['no root', '<?xml version="1.0"?>', /no root element/],
  ])('rejects %s', (_name, xml, problem) => {
    expect(wellFormedXml(xml).join('\n')).toMatch(problem);
  });
});
