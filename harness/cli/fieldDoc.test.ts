import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildRegistry } from '#harness/checks/index.ts';
import { isFaultId } from '#harness/emulator/faults/catalogue.ts';
import { loadSpec } from '#harness/spec/load.ts';

/**
 * docs/field.md holds each field class with its report, its check and its test. This holds the
 * table to the code: every check id it names is in the registry, every test file exists, every
 * fault is in the catalogue, every report's link says the repository and number its text says.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'field.md'), 'utf8');
const ids = new Set(buildRegistry(loadSpec().spec).all().map((c) => c.id));

interface Row {
  name: string;
  reported: string;
  checks: string[];
  shownBy: string[];
}

/** The rows of the table under "## Classes". */
function rows(): Row[] {
  const section = DOC.split(/^## /m).find((s) => s.startsWith('Classes'));
  if (section === undefined) throw new Error('docs/field.md has no "## Classes" section');
  const lines = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| class ') && !l.startsWith('|---'));
  const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return lines.map((line) => {
    const cells = line.split(' | ').map((c) => c.replace(/^\| /, '').replace(/ \|$/, ''));
    if (cells.length !== 5) throw new Error(`docs/field.md: a row of ${cells.length} cells, not 5: ${line.slice(0, 80)}`);
    const [name, reported, , check, shown] = cells as [string, string, string, string, string];
    return { name, reported, checks: ticked(check), shownBy: ticked(shown) };
  });
}

describe('docs/field.md', () => {
  const table = rows();

  test('lists every class of issue 47 item 7', () => {
    const names = table.map((r) => r.name).join('\n');
    for (const c of ['SSE error event', 'refusal answered 500', 'non-ASCII', 'thinking-mode plain', 'crossed under load', 'another model', 'usage-only chunk', 'FastAPI', '`function_call`', 'double-encoded', 'arguments cut', 'cache fields dropped', 'usage sent twice', 'usage on every chunk', 'role repeated', '`content: null` beside tool calls']) expect(names, c).toContain(c);
  });

  test('every check it names is in the registry', () => {
    for (const r of table) {
      expect(r.checks.length, r.name).toBeGreaterThan(0);
      for (const id of r.checks) expect(ids.has(id), `${r.name}: ${id}`).toBe(true);
    }
  });

  test('every row has a test; each test file named exists, each fault is in the catalogue', () => {
    for (const r of table) {
      const tests = r.shownBy.filter((s) => s.endsWith('.test.ts'));
      expect(tests.length, r.name).toBeGreaterThan(0);
      for (const t of tests) expect(existsSync(join(ROOT, t)), `${r.name}: ${t}`).toBe(true);
      for (const f of r.shownBy.filter((s) => !s.endsWith('.test.ts'))) expect(isFaultId(f), `${r.name}: fault ${f}`).toBe(true);
    }
  });

  test('each report is a GitHub issue or pull request whose link says what its text says', () => {
    for (const r of table) {
      const links = [...r.reported.matchAll(/\[([^\]]+)\]\(([^)]+)\)/g)];
      // "as above": the row before's reports stand for this one too.
      if (r.reported !== 'as above') expect(links.length, r.name).toBeGreaterThan(0);
      for (const [, text, url] of links) {
        const m = /^https:\/\/github\.com\/([^/]+\/[^/]+)\/(?:issues|pull)\/(\d+)$/.exec(url!);
        expect(m, `${r.name}: ${url}`).not.toBeNull();
        expect(text, url).toBe(`${m![1]}#${m![2]}`);
      }
    }
  });
});
