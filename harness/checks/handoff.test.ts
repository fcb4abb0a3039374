import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { buildRegistry } from './index.ts';
import { SCHEMA_SUBJECTS, schemaCheckOf, REQUIRED_FORCES_CALL, type ShapedObject } from './support/handoff.ts';

/**
 * No free-text hand-off: a check that leaves a defect to another check names it as data
 * (support/handoff.ts), so the run can settle it (runner/handoff.ts). A skip or inconclusive whose
 * words name a check, or "the schema checks", would leave the defect to a check that may pass it.
 */
const { spec } = loadSpec();
const ids = buildRegistry(spec).all().map((c) => c.id);
const here = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The text of each call to `name(` in `source`, up to its closing parenthesis (strings and templates skipped). */
function callsOf(source: string, name: string): string[] {
  const out: string[] = [];
  const opener = new RegExp(`\\b${name}\\(`, 'g');
  for (let m = opener.exec(source); m !== null; m = opener.exec(source)) {
    let depth = 1;
    let i = m.index + m[0].length;
    let quote: string | undefined;
    for (; i < source.length && depth > 0; i++) {
      const c = source[i]!;
      if (quote !== undefined) {
        if (c === '\\') i++;
        else if (c === quote) quote = undefined;
        continue;
      }
      if (c === "'" || c === '"' || c === '`') quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    out.push(source.slice(m.index, i));
  }
  return out;
}

/** Words that leave a defect to another check. */
const DELEGATING_WORDS = /schema checks?|\bjudges (that|the|it)\b|\breports (it|its|that|the status)\b|\bthe [a-z_]+ (checks|rules) (judge|report)/;
/** Those words, or a check id built in a template (`request.${field}.accepted-within-bounds`): in a skip's reason, a hand-off in words. */
const DELEGATES = new RegExp(`${DELEGATING_WORDS.source}|\\b[a-z]+\\.\\$\\{[^}]+\\}\\.[a-z][a-z0-9-]*\\b`);

test('no skip or inconclusive names another check, or "the schema checks", in words alone', () => {
  const found: string[] = [];
  for (const file of sources(here)) {
    const source = readFileSync(file, 'utf8');
    for (const call of [...callsOf(source, 'inconclusive'), ...callsOf(source, 'skip')]) {
      const named = ids.find((id) => call.includes(id)) ?? call.match(DELEGATES)?.[0];
      if (named !== undefined) found.push(`${relative(here, file)}: ${call.slice(0, 160)} (names ${named})`);
    }
  }
  expect(found).toEqual([]);
});

/** Every string literal and template in `source`, comments left out (a template's `${…}` parts kept as written). */
const literals = (source: string): string[] => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1').match(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g) ?? [];

test('no text of the checks says another check judges or reports a defect (a reason kept in a constant too)', () => {
  const found = sources(here).flatMap((file) =>
    literals(readFileSync(file, 'utf8'))
      .filter((text) => DELEGATING_WORDS.test(text) || (/\b(judges?|reports?)\b/.test(text) && ids.some((id) => text.includes(id))))
      .map((text) => `${relative(here, file)}: ${text.slice(0, 160)}`),
  );
  expect(found).toEqual([]);
});

test('the checks a hand-off names are in the registry', () => {
  for (const object of Object.keys(SCHEMA_SUBJECTS) as ShapedObject[]) if (spec.objects[object]) expect(ids).toContain(schemaCheckOf(object));
  expect(ids).toContain(REQUIRED_FORCES_CALL);
  expect(ids).toContain(`${REQUIRED_FORCES_CALL}.streamed`);
  // The owners named as literals in the checks' sources.
  const literal = /handOff(?:ToRule)?\(\s*'([^']+)'/g;
  const named = sources(here).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(literal)].map((m) => m[1]!));
  expect(named.length).toBeGreaterThan(0);
  expect(named.filter((id) => !ids.includes(id))).toEqual([]);
});
