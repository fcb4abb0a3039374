import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { buildRegistry } from './index.ts';

/**
 * docs/checks.md lists, per check, the premises it checks: every check of the registry falls under
 * a row of that table (an id, or a pattern with `*` or `<id>`), so a new check cannot go unlisted.
 */
const doc = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8');
const table = doc.slice(doc.indexOf('## Premises, check by check'));
const patterns = table
  .split('\n')
  .filter((l) => l.startsWith('| `'))
  .flatMap((l) => [...l.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
  .map((p) => new RegExp(`^${p.replace(/[.+?^${}()[\]\\]/g, (c) => `\\${c}`).replace(/<[a-z]+>|\*/g, '.+')}$`));

test('every check of the registry has its premises listed in docs/checks.md', () => {
  expect(patterns.length).toBeGreaterThan(30);
  const { spec } = loadSpec();
  const unlisted = buildRegistry(spec).all().map((c) => c.id).filter((id) => !patterns.some((p) => p.test(id)));
  expect(unlisted).toEqual([]);
});
