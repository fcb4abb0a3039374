import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_SPEC_DIR, loadFromFiles } from '#harness/spec/load.ts';
import { markBundled, SPEC_CACHE_FILE } from '#harness/spec/specCache.ts';
import { staleDist } from '#harness/testing/freshDist.ts';
import { cachedFeasibility, writeFeasibility } from './breakFeasibility.ts';
import { resolveConstraints } from './_internals/helpers/constraints.ts';
import { breakFeasibility } from './invalidChatRequest.ts';

const { spec } = loadFromFiles(DEFAULT_SPEC_DIR);
const DIST = new URL('../../../dist/cli/', import.meta.url);
const stale = staleDist();
const models = Object.entries(spec.models)
  .filter(([, m]) => m.kind === 'current')
  .map(([id]) => id);

describe('which breaks a model can be drawn with, as the build wrote them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-feasibility-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = pathToFileURL(`${dir}/`);
  const model = models[0]!;
  const opts = resolveConstraints(spec, { model }, 'test');
  const { key, drawable } = breakFeasibility(spec, { model });
  writeFeasibility('digest-a', { [key]: drawable }, at);

  test('read back for a spec cached under the digest they were written with', () => {
    expect(drawable.length).toBeGreaterThan(10);
    expect(cachedFeasibility(markBundled(structuredClone(spec), 'digest-a'), opts, drawable.length, at)).toEqual(drawable);
  });

  test('not for another spec, a spec loaded from its files, other options, or another number of breaks: those are drawn', () => {
    expect(cachedFeasibility(markBundled(structuredClone(spec), 'digest-b'), opts, drawable.length, at)).toBeUndefined();
    expect(cachedFeasibility(spec, opts, drawable.length, at)).toBeUndefined();
    expect(cachedFeasibility(markBundled(structuredClone(spec), 'digest-a'), { ...opts, sentAs: 'provider-id' }, drawable.length, at)).toBeUndefined();
    expect(cachedFeasibility(markBundled(structuredClone(spec), 'digest-a'), opts, drawable.length + 1, at)).toBeUndefined();
  });

  test('a model that refuses what some breaks need has them marked: they are left out of its arbitrary', () => {
    expect(Object.keys(spec.models).filter((id) => breakFeasibility(spec, { model: id }).drawable.includes(false)).length).toBeGreaterThan(0);
  });
});

describe.skipIf(stale !== undefined)(`the feasibility the build wrote${stale ? ` (skipped: ${stale})` : ''}`, () => {
  test.each(models)('%s: the same flags as drawing each break now', (model) => {
    // The digest the build wrote the file under: its spec cache's, beside the bundle.
    const { digest } = JSON.parse(readFileSync(new URL(SPEC_CACHE_FILE, DIST), 'utf8')) as { digest: string };
    const computed = breakFeasibility(spec, { model }).drawable;
    expect(cachedFeasibility(markBundled(structuredClone(spec), digest), resolveConstraints(spec, { model }, 'test'), computed.length, DIST)).toEqual(computed);
  });
});
