import { SaxesParser } from 'saxes';

/**
 * Every XML 1.0 well-formedness problem saxes (the conforming parser jsdom uses) finds, as
 * `line:column: message`; empty when the document is well formed. A dev dependency: only the
 * JUnit tests read XML.
 */
export function wellFormedXml(xml: string): string[] {
  const problems: string[] = [];
  const parser = new SaxesParser();
  parser.on('error', (err) => problems.push(err.message));
  parser.write(xml).close();
  return problems;
}
