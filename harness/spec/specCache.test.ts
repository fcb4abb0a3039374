import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { staleDist } from '#harness/testing/freshDist.ts';
import { DEFAULT_SPEC_DIR, fromCacheOrFiles, loadFromFiles } from './load.ts';
import { bundledDigest, SPEC_CACHE_FILE, specDigest, type SpecCache } from './specCache.ts';

const copy = mkdtempSync(join(tmpdir(), 'svc-spec-cache-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));
const BUNDLED = fileURLToPath(new URL(`../../dist/cli/${SPEC_CACHE_FILE}`, import.meta.url));

describe('the spec cache beside the bundle', () => {
  test('its key is the spec files: a copy hashes the same, one changed byte does not', () => {
    cpSync(DEFAULT_SPEC_DIR, copy, { recursive: true });
    expect(specDigest(copy)).toBe(specDigest(DEFAULT_SPEC_DIR));
    const file = join(copy, 'limits.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n`);
    expect(specDigest(copy)).not.toBe(specDigest(DEFAULT_SPEC_DIR));
  });

  test('a cache is used only while the files hash to its digest: stale or missing, the files are loaded', () => {
    const dir = mkdtempSync(join(copy, 'loaded-'));
    cpSync(DEFAULT_SPEC_DIR, dir, { recursive: true });
    const { spec, origins } = loadFromFiles(dir);
    const cache: SpecCache = { digest: specDigest(dir), spec: structuredClone(spec), origins };
    const hit = fromCacheOrFiles(dir, cache);
    expect(hit.spec).toBe(cache.spec);
    expect(bundledDigest(hit.spec)).toBe(cache.digest);

    const file = join(dir, 'service.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^revision_updated: .*$/m, 'revision_updated: "2000-01-01"'));
    const stale = fromCacheOrFiles(dir, cache);
    expect(stale.spec).not.toBe(cache.spec);
    expect(stale.spec).not.toEqual(cache.spec);
    expect(bundledDigest(stale.spec)).toBeUndefined();

    const missing = fromCacheOrFiles(dir, undefined);
    expect(missing.spec).toEqual(stale.spec);
    expect(bundledDigest(missing.spec)).toBeUndefined();
  });

  const stale = staleDist();
  test.skipIf(stale !== undefined)(`the build wrote what loading spec/ gives, under the digest of spec/${stale ? ` (skipped: ${stale})` : ''}`, () => {
    const cache = JSON.parse(readFileSync(BUNDLED, 'utf8')) as SpecCache;
    const loaded = loadFromFiles(DEFAULT_SPEC_DIR);
    expect(cache.digest).toBe(specDigest(DEFAULT_SPEC_DIR));
    expect(cache.spec).toEqual(loaded.spec);
    expect(cache.origins).toEqual(loaded.origins);
  });
});
