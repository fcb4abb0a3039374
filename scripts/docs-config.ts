// Writes docs/config.md's option reference from the run options' table (harness/cli/runOptions.ts),
// between the markers the page holds; the rest of the page is left byte for byte. Run after a row of
// the table changes:
//   npm run docs:config
// harness/cli/optionsDoc.test.ts fails while the page no longer matches the table.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPTIONS_DOC, renderOptionsReference, withOptionsReference } from '#harness/cli/optionsDoc.ts';

const doc = fileURLToPath(new URL(`../${OPTIONS_DOC}`, import.meta.url));
const before = readFileSync(doc, 'utf8');
const after = withOptionsReference(before, renderOptionsReference());
if (after !== before) writeFileSync(doc, after);
console.log(`docs:config: the option reference ${after === before ? 'already up to date in' : 'written to'} ${OPTIONS_DOC}`);
