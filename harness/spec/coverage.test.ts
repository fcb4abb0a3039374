import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { describeWithDescription } from '#harness/testing/description.ts';

/**
 * Every model id, field name, status code, bound, date and price named in the tables of the service
 * description appears somewhere in spec/. The expected tokens are parsed out of the markdown, so a
 * row the description gains later is checked without touching this file.
 *
 * Model ids, backticked names and dates are also collected from the prose (they are as specific
 * there as in the tables); numbers only from the tables (prose numbers are too often incidental).
 */

type Category = 'model id' | 'name' | 'status' | 'bound' | 'date' | 'price';

/**
 * Tokens the parser picks up that are not part of the contract, each with why it is left out.
 * Keyed by category, then token.
 */
const IGNORED: Partial<Record<Category, Record<string, string>>> = {
  name: {
    // Tool definition table: "JSON-schema object (`type`, `properties`, `required`, `enum` inside
    // properties)". JSON Schema keywords inside a client's function.parameters, not a field of the
    // service; spec/objects.yaml keeps the sentence in the notes of function.parameters.
    properties: 'a JSON Schema keyword inside function.parameters, not a service field',
  },
};

// ------------------------------------------------------------------ markdown

interface Row {
  line: number;
  cells: string[];
}

interface Table {
  heading: string;
  line: number;
  header: string[];
  rows: Row[];
}

function splitRow(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** Pipe tables (header, separator, rows) with the heading they sit under; plus the non-table lines. */
function parseMarkdown(md: string): { tables: Table[]; prose: Row[] } {
  const lines = md.split('\n');
  const tables: Table[] = [];
  const prose: Row[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^#+\s+(.*)$/.exec(line);
    if (h) heading = h[1]!.trim();
    const next = lines[i + 1] ?? '';
    if (line.trim().startsWith('|') && /^\s*\|?\s*:?-{3,}/.test(next)) {
      const table: Table = { heading, line: i + 1, header: splitRow(line), rows: [] };
      i += 2;
      while (i < lines.length && lines[i]!.trim().startsWith('|')) {
        table.rows.push({ line: i + 1, cells: splitRow(lines[i]!) });
        i++;
      }
      i--;
      tables.push(table);
      continue;
    }
    prose.push({ line: i + 1, cells: [line] });
  }
  return { tables, prose };
}

// ------------------------------------------------------------------ tokens

const MODEL_ID = /\bsvc-[a-z0-9]+(?:[.-][a-z0-9]+)*/g;
const DATE = /(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/g;
const TIME = /(?<![\d:])\d{1,2}:\d{2}(?![\d:])/g;
const BACKTICKED = /`([^`]+)`/g;
/** A field path or a value: `max_tokens`, `choices[].message.role`, `choices[0].text`, `json_object`. */
const NAME = /^[a-z_][a-z0-9_]*(?:\[\d*\])?(?:\.[a-z_][a-z0-9_]*(?:\[\d*\])?)*$/;
/** "128K", "1M" as the description writes them. */
const QUANTITY = /(?<![\w.])\d+(?:\.\d+)?[KM](?![\w])/g;
/** 384000, 2.00, -2.0; not the 3 of V3.2 nor the 75 of 75%. */
const NUMBER = /(?<![\w.])-?\d+(?:\.\d+)?(?![\w%])/g;
const PLACEHOLDER = /\{[a-z_]+\}(?:\/[a-z0-9]+)*/g;

interface Expected {
  category: Category;
  token: string;
  where: string;
}

function collectExpected(md: string): { expected: Expected[]; fromTables: Expected[] } {
  const { tables, prose } = parseMarkdown(md);
  const seen = new Map<string, Expected>();
  const tableItems = new Map<string, Expected>();
  const add = (category: Category, token: string, where: string, inTable: boolean) => {
    const key = `${category}\u0000${token}`;
    const item = { category, token, where };
    if (!seen.has(key)) seen.set(key, item);
    if (inTable && !tableItems.has(key)) tableItems.set(key, item);
  };

  /** Model ids, dates, times and backticked names: anywhere. Returns the text without them. */
  const common = (text: string, where: string, inTable: boolean): string => {
    for (const m of text.matchAll(MODEL_ID)) add('model id', m[0], where, inTable);
    for (const m of text.matchAll(DATE)) add('date', m[0], where, inTable);
    for (const m of text.matchAll(TIME)) add('date', m[0], where, inTable);
    for (const m of text.matchAll(BACKTICKED)) if (NAME.test(m[1]!)) add('name', m[1]!, where, inTable);
    return text.replace(BACKTICKED, ' ').replace(MODEL_ID, ' ').replace(DATE, ' ').replace(TIME, ' ').replace(PLACEHOLDER, ' ');
  };

  for (const table of tables) {
    const first = table.header[0] ?? '';
    const nameColumn = /^(field|value)$/i.test(first);
    const statusColumn = /http status/i.test(first);
    const isPrices = table.header.some((h) => /cache hit/i.test(h));
    for (const row of table.rows) {
      row.cells.forEach((cell, col) => {
        const column = table.header[col] ?? `column ${col + 1}`;
        const where = `table under "${table.heading}", line ${row.line}, column "${column}"`;
        const rest = common(cell, where, true);
        if (col === 0 && nameColumn) {
          const name = cell.replace(/`/g, '');
          if (NAME.test(name)) add('name', name, where, true);
          return;
        }
        if (col === 0 && statusColumn) {
          if (/^\d{3}$/.test(cell)) add('status', cell, where, true);
          return;
        }
        if (isPrices) {
          if (/input|output/i.test(column)) for (const m of rest.matchAll(NUMBER)) add('price', m[0], where, true);
          return;
        }
        for (const m of rest.matchAll(QUANTITY)) add('bound', m[0], where, true);
        for (const m of rest.replace(QUANTITY, ' ').matchAll(NUMBER)) add('bound', m[0], where, true);
      });
    }
  }
  for (const row of prose) common(row.cells[0]!, `prose, line ${row.line}`, false);

  const keep = (e: Expected) => IGNORED[e.category]?.[e.token] === undefined;
  return { expected: [...seen.values()].filter(keep), fromTables: [...tableItems.values()].filter(keep) };
}

// ------------------------------------------------------------------ spec

interface SpecTokens {
  keys: Set<string>;
  strings: Set<string>;
  numbers: Set<number>;
}

const NUMERIC = /^-?\d+(?:\.\d+)?$/;

/** Every key and every scalar of the loaded spec; numbers also from numeric strings ("2.00", "0.14"). */
function collectSpec(value: unknown, out: SpecTokens = { keys: new Set(), strings: new Set(), numbers: new Set() }): SpecTokens {
  if (Array.isArray(value)) {
    for (const v of value) collectSpec(v, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.keys.add(k);
      collectSpec(v, out);
    }
  } else if (typeof value === 'number') {
    out.numbers.add(value);
    out.strings.add(String(value));
  } else if (typeof value === 'string') {
    out.strings.add(value);
    if (NUMERIC.test(value)) out.numbers.add(Number(value));
  } else if (typeof value === 'boolean') {
    out.strings.add(String(value));
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function found(item: Expected, spec: SpecTokens): boolean {
  const { token } = item;
  const named = (t: string) => spec.keys.has(t) || spec.strings.has(t);
  switch (item.category) {
    case 'model id':
      return named(token);
    case 'name': {
      // a dotted or bracketed path counts when the whole path or its last segment is there
      const last = token.split('.').pop()!.replace(/\[\d*\]$/, '');
      return named(token) || named(last);
    }
    case 'status':
      return spec.keys.has(token) || spec.numbers.has(Number(token));
    case 'bound':
      // a quantity ("128K") as written; a plain number numerically
      return /[KM]$/.test(token) ? spec.strings.has(token) : spec.numbers.has(Number(token));
    case 'price':
      return spec.numbers.has(Number(token));
    case 'date': {
      // a date or a time may sit inside an instant ("2026-07-24T15:59:00Z") or a sentence
      const re = new RegExp(`(?<![\\d:])${escapeRegExp(token)}(?!\\d)`);
      for (const s of spec.strings) if (s === token || re.test(s)) return true;
      for (const k of spec.keys) if (k === token) return true;
      return false;
    }
  }
}

// ------------------------------------------------------------------ tests

describeWithDescription('spec/ covers the service description', (path) => {
  const md = fs.readFileSync(path, 'utf8');
  const { expected, fromTables } = collectExpected(md);
  const spec = collectSpec(loadSpec().spec);

  test('the parser finds the tables and enough tokens of each kind', () => {
    const { tables } = parseMarkdown(md);
    expect(tables.length).toBeGreaterThanOrEqual(16);
    const count = (items: Expected[], c: Category) => items.filter((e) => e.category === c).length;
    // Lower bounds are the distinct counts in revision v2026-05: the description may add, never go under.
    expect(count(fromTables, 'model id')).toBeGreaterThanOrEqual(5); // svc-v4-flash ... svc-v3.2
    expect(count(expected, 'model id')).toBeGreaterThanOrEqual(8); // + svc-coder-v2, svc-r1, svc-vl (Versioning 3)
    expect(count(fromTables, 'name')).toBeGreaterThanOrEqual(69);
    expect(count(expected, 'name')).toBeGreaterThanOrEqual(82); // + usage fields, error fields ... in prose
    expect(count(fromTables, 'status')).toBeGreaterThanOrEqual(8);
    expect(count(fromTables, 'bound')).toBeGreaterThanOrEqual(20);
    expect(count(fromTables, 'date')).toBeGreaterThanOrEqual(9);
    expect(count(expected, 'date')).toBeGreaterThanOrEqual(14); // + peak hours, revision date
    expect(count(fromTables, 'price')).toBeGreaterThanOrEqual(11);
  });

  test.each<Category>(['model id', 'name', 'status', 'bound', 'date', 'price'])('every %s appears in spec/', (category) => {
    const missing = expected
      .filter((e) => e.category === category && !found(e, spec))
      .map((e) => `${e.token}  (${e.where})`);
    expect(missing, `${category}s of the description missing from spec/`).toEqual([]);
  });

  test('the ignore list names only tokens the description still has', () => {
    for (const [category, tokens] of Object.entries(IGNORED)) {
      for (const token of Object.keys(tokens ?? {})) {
        const stillThere = md.includes(`\`${token}\``) || md.includes(`| ${token} |`);
        expect(stillThere, `${category} \`${token}\` is ignored but no longer in the description; drop it from IGNORED`).toBe(true);
      }
    }
  });
});
