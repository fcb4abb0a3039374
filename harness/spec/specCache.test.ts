import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { staleDist } from '#harness/testing/freshDist.ts';
import { DEFAULT_SPEC_DIR, loadFromFiles } from './load.ts';
import { SPEC_CACHE_FILE, specDigest, type SpecCache } from './specCache.ts';

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

  const stale = staleDist();
  test.skipIf(stale !== undefined)(`the build wrote what loading spec/ gives, under the digest of spec/${stale ? ` (skipped: ${stale})` : ''}`, () => {
    const cache = JSON.parse(readFileSync(BUNDLED, 'utf8')) as SpecCache;
    const loaded = loadFromFiles(DEFAULT_SPEC_DIR);
    expect(cache.digest).toBe(specDigest(DEFAULT_SPEC_DIR));
    expect(cache.spec).toEqual(loaded.spec);
    expect(cache.origins).toEqual(loaded.origins);
  });
});
