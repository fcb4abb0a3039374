import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { PINS_TABLES_DOC, PINS_TABLES_END, PINS_TABLES_START, pinsTablesIn, pinsTablesSources, renderPinsTables, withPinsTables, type PinsTableSource } from './pinsTables.ts';

/**
 * docs/endpoints.md's verdict tables are the pins rendered (pinsTables.ts), never written by hand: the
 * committed page must hold exactly what `npm run docs:pins` would write, so a pin changed, a server
 * recorded or a hand edit of a table fails here until the page is written again.
 */
const DOC = readFileSync(fileURLToPath(new URL(`../../../${PINS_TABLES_DOC}`, import.meta.url)), 'utf8');
const { sources, severityOf } = await pinsTablesSources();
const rendered = renderPinsTables(sources, severityOf);

/** One server's table, as rendered: from its summary to its closing tag. */
const tableOf = (text: string, name: string): string => {
  const from = text.indexOf(`<summary><code>${name}</code>`);
  expect(from, name).toBeGreaterThanOrEqual(0);
  return text.slice(from, text.indexOf('</details>', from));
};

/** The sources with one server's pins changed. */
function withPins(name: string, change: (verdicts: PinsTableSource['recorded']['verdicts']) => PinsTableSource['recorded']['verdicts']): PinsTableSource[] {
  return sources.map((s) => (s.recorded.name === name ? { ...s, recorded: { ...s.recorded, verdicts: change(s.recorded.verdicts) } } : s));
}

describe(`${PINS_TABLES_DOC}'s verdict tables`, () => {
  test('the committed page holds the tables its pins give (else: npm run docs:pins)', () => {
    expect(sources.length).toBeGreaterThan(0);
    expect(pinsTablesIn(DOC)).toBe(rendered);
  });

  test('a pin changed after the page was written, or a table edited by hand, is a drift', () => {
    const server = sources.find((s) => Object.values(s.recorded.verdicts).some((p) => p.verdict === 'pass'))!.recorded;
    const [passing] = Object.entries(server.verdicts).find(([, p]) => p.verdict === 'pass')!;
    const moved = renderPinsTables(withPins(server.name, (v) => ({ ...v, [passing]: { verdict: 'fail', why: 'moved | on two\nlines' } })), severityOf);
    expect(pinsTablesIn(DOC)).not.toBe(moved);
    // The moved pin is a row of its own server's table, one line, its `|` no column break.
    const row = tableOf(moved, server.name).split('\n').find((l) => l.startsWith(`| \`${passing}\` |`))!;
    expect(row).toContain('| **fail** | moved \\| on two lines |');
    expect(row.split(/(?<!\\)\|/).length).toBe(6);
    // A hand edit inside the markers.
    const edited = withPinsTables(DOC, pinsTablesIn(DOC).replace('| **fail** |', '| **pass** |'));
    expect(edited).not.toBe(DOC);
    expect(pinsTablesIn(edited)).not.toBe(rendered);
  });

  test("each server's table holds every pin that is not a pass, and no pass", () => {
    for (const { recorded: r } of sources) {
      const table = tableOf(rendered, r.name);
      for (const [id, p] of Object.entries(r.verdicts)) {
        const row = table.split('\n').find((l) => l.startsWith('| `') && l.split(' | ')[0]!.includes(`\`${id}\``));
        if (p.verdict === 'pass') expect(row, `${r.name}: ${id}`).toBeUndefined();
        else expect(row, `${r.name}: ${id}`).toContain(`| **${p.verdict}** |`);
      }
    }
  });

  test('writing the tables changes only the text between the markers', () => {
    const before = DOC.slice(0, DOC.indexOf(PINS_TABLES_START) + PINS_TABLES_START.length);
    const after = DOC.slice(DOC.indexOf(PINS_TABLES_END));
    const written = withPinsTables(DOC, '\nanything\n');
    expect(written).toBe(`${before}\nanything\n${after}`);
    expect(withPinsTables(written, pinsTablesIn(DOC))).toBe(DOC);
  });

  test('a page without its markers, or with them twice, is refused', () => {
    expect(() => pinsTablesIn(DOC.replace(PINS_TABLES_START, ''))).toThrow(/expected one/);
    expect(() => pinsTablesIn(DOC.replace(PINS_TABLES_END, ''))).toThrow(/expected one/);
    expect(() => withPinsTables(`${DOC}\n${PINS_TABLES_START}\n${PINS_TABLES_END}\n`, rendered)).toThrow(/expected one/);
  });
});
