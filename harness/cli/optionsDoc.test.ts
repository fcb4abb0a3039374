import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { OPTIONS_DOC, OPTIONS_END, OPTIONS_START, optionsReferenceIn, renderOptionsReference, withOptionsReference } from './optionsDoc.ts';
import { RUN_OPTIONS, type RunOption } from './runOptions.ts';

/**
 * docs/config.md's option reference is the run options' table rendered (optionsDoc.ts), never
 * written by hand: the committed page must hold exactly what `npm run docs:config` would write, so
 * a row changed or added, or a hand edit of the reference, fails here until the page is written again.
 */
const DOC = readFileSync(fileURLToPath(new URL(`../../${OPTIONS_DOC}`, import.meta.url)), 'utf8');
const rendered = renderOptionsReference();

describe(`${OPTIONS_DOC}'s option reference`, () => {
  test('the committed page holds the reference the table gives (else: npm run docs:config)', () => {
    expect(optionsReferenceIn(DOC)).toBe(rendered);
  });

  test('every option is in it once, a keyed one as a row of the table under its key', () => {
    for (const o of RUN_OPTIONS as readonly RunOption[]) {
      expect(rendered.split(`\`--${o.flag}${o.arg ? ` ${o.arg}` : ''}\``).length - 1, o.flag).toBe(1);
      if ('key' in o.config) expect(rendered, o.flag).toMatch(new RegExp(`^\\| \`${o.config.key}\` \\| \`--${o.flag}[ \`]`, 'm'));
    }
  });

  test('a row changed after the page was written, or the reference edited by hand, is a drift', () => {
    const changed = (RUN_OPTIONS as readonly RunOption[]).map((o) => (o.flag === 'runs' ? { ...o, default: 11, help: ['property-test runs | on one line'] } : o));
    const moved = renderOptionsReference(changed);
    expect(optionsReferenceIn(DOC)).not.toBe(moved);
    // The changed row is one line of the table, its `|` no column break.
    const row = moved.split('\n').find((l) => l.startsWith('| `runs` |'))!;
    expect(row).toContain('| `11` |');
    expect(row.split(/(?<!\\)\|/).length).toBe(8);
    const edited = withOptionsReference(DOC, optionsReferenceIn(DOC).replace('| `10` |', '| `12` |'));
    expect(edited).not.toBe(DOC);
    expect(optionsReferenceIn(edited)).not.toBe(rendered);
  });

  test('writing the reference changes only the text between the markers', () => {
    const before = DOC.slice(0, DOC.indexOf(OPTIONS_START) + OPTIONS_START.length);
    const after = DOC.slice(DOC.indexOf(OPTIONS_END));
    const written = withOptionsReference(DOC, '\nanything\n');
    expect(written).toBe(`${before}\nanything\n${after}`);
    expect(withOptionsReference(written, optionsReferenceIn(DOC))).toBe(DOC);
  });

  test('a page without its markers, with them twice, or out of order, is refused', () => {
    expect(() => optionsReferenceIn(DOC.replace(OPTIONS_START, ''))).toThrow(/expected one/);
    expect(() => optionsReferenceIn(DOC.replace(OPTIONS_END, ''))).toThrow(/expected one/);
    expect(() => withOptionsReference(`${DOC}\n${OPTIONS_START}\n${OPTIONS_END}\n`, rendered)).toThrow(/expected one/);
    expect(() => optionsReferenceIn(`${OPTIONS_END}\n${OPTIONS_START}\n`)).toThrow(/expected one/);
  });
});
