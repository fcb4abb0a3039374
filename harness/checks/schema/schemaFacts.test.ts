import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_SPEC_DIR, loadFromFiles } from '#harness/spec/load.ts';
import { markBundled, SPEC_CACHE_FILE } from '#harness/spec/specCache.ts';
import { staleDist } from '#harness/testing/freshDist.ts';
import { writeDerived } from '#harness/derive/derivedBeside.ts';
import { deriveSchemaFacts, SCHEMA_FACTS_FILE, schemaFactsOf, writeSchemaFacts } from './schemaFacts.ts';

const { spec } = loadFromFiles(DEFAULT_SPEC_DIR);
const DIST = new URL('../../../dist/cli/', import.meta.url);
const stale = staleDist();

describe('schema facts: the levels an object\'s schema constrains and the objects it bundles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-schema-facts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = pathToFileURL(`${dir}/`);

  test('derived: must and strict always, and the object first among what it bundles', () => {
    const facts = deriveSchemaFacts(spec, 'chat_completion');
    expect(facts.levels).toEqual(expect.arrayContaining(['must', 'strict']));
    expect(facts.refs[0]).toBe('objects.chat_completion');
    expect(facts.refs.length).toBeGreaterThan(1);
  });

  test('written for a spec cached under a digest, read back for it alone; any other spec derives them', () => {
    expect(writeSchemaFacts(spec, 'digest-a', at)).toBe(Object.keys(spec.objects).length);
    expect(schemaFactsOf(markBundled(structuredClone(spec), 'digest-a'), 'usage', at)).toEqual(deriveSchemaFacts(spec, 'usage'));
    // Facts that differ from deriving them show which was read.
    // (Another directory: a file is read once per process.)
    const forged = { levels: ['must'], refs: ['objects.forged'] };
    const other = mkdtempSync(join(tmpdir(), 'svc-schema-facts-forged-'));
    try {
      writeDerived(SCHEMA_FACTS_FILE, 'digest-c', { usage: forged }, pathToFileURL(`${other}/`));
      expect(schemaFactsOf(markBundled(structuredClone(spec), 'digest-c'), 'usage', pathToFileURL(`${other}/`))).toEqual(forged);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    expect(schemaFactsOf(markBundled(structuredClone(spec), 'digest-b'), 'usage', at)).toEqual(deriveSchemaFacts(spec, 'usage'));
    expect(schemaFactsOf(spec, 'usage', at)).toEqual(deriveSchemaFacts(spec, 'usage'));
  });
});

describe.skipIf(stale !== undefined)(`the schema facts the build wrote${stale ? ` (skipped: ${stale})` : ''}`, () => {
  test('every object: the same facts as deriving them now', () => {
    const { digest } = JSON.parse(readFileSync(new URL(SPEC_CACHE_FILE, DIST), 'utf8')) as { digest: string };
    const bundled = markBundled(structuredClone(spec), digest);
    for (const object of Object.keys(spec.objects)) expect(schemaFactsOf(bundled, object, DIST), object).toEqual(deriveSchemaFacts(spec, object));
  });
});
