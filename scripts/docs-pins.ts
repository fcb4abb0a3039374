// Writes docs/endpoints.md's verdict tables, one per recorded real server, from its pins
// (harness/testing/thirdParty/*.pins.ts), between the markers the page holds; the rest of the page is
// left byte for byte. Run after a pin changes or a server is recorded:
//   npm run docs:pins
// harness/testing/thirdParty/pinsTables.test.ts fails while the page no longer matches the pins.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PINS_TABLES_DOC, pinsTablesSources, renderPinsTables, withPinsTables } from '#harness/testing/thirdParty/pinsTables.ts';

const doc = fileURLToPath(new URL(`../${PINS_TABLES_DOC}`, import.meta.url));
const { sources, severityOf } = await pinsTablesSources();
const before = readFileSync(doc, 'utf8');
const after = withPinsTables(before, renderPinsTables(sources, severityOf));
if (after !== before) writeFileSync(doc, after);
console.log(`docs:pins: the tables of ${sources.length} recorded servers ${after === before ? 'already up to date in' : 'written to'} ${PINS_TABLES_DOC}`);
