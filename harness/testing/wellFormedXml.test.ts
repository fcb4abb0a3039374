import { describe, expect, test } from 'vitest';
import { wellFormedXml } from './wellFormedXml.ts';

describe('wellFormedXml (the test helper the JUnit tests rely on: saxes)', () => {
  test('accepts well-formed documents', () => {
    expect(wellFormedXml('<?xml version="1.0" encoding="UTF-8"?>\n<a x="1" y=\'&lt;2&gt;\'><b/><!-- c --><c>&amp; &#10; &#x1F600;</c><![CDATA[ <raw> ]]></a>\n')).toEqual([]);
  });

  test.each([
    ['unbalanced', '<a><b></a>', /unexpected close tag/],
    ['unclosed', '<a><b>', /unclosed tag: b\n.*unclosed tag: a/],
    ['two roots', '<a/><b/>', /only one root/],
    ['text outside the root', '<a/>x', /text data outside of root node/],
    ['bare ampersand in text', '<a>fish & chips</a>', /unexpected end/],
    ['bare ampersand in an attribute', '<a m="a & b"/>', /unexpected end/],
    ['unknown entity', '<a>&nbsp;</a>', /undefined entity/],
    ['< in an attribute', '<a m="<"/>', /disallowed character/],
    ['unquoted attribute', '<a m=1/>', /unquoted attribute value/],
    ['duplicate attribute', '<a m="1" m="2"/>', /duplicate attribute: m/],
    [']]> in text', '<a>x]]>y</a>', /"\]\]>" is disallowed in char data/],
    ['a raw control character', '<a>\u0001</a>', /disallowed character/],
    ['a reference to a control character', '<a>&#1;</a>', /malformed character entity/],
    ['a declaration not first', ' <?xml version="1.0"?><a/>', /must be at the start of the document/],
    ['no root', '<?xml version="1.0"?>', /must contain a root element/],
  ])('rejects %s', (_name, xml, problem) => {
    expect(wellFormedXml(xml).join('\n')).toMatch(problem);
  });
});
