import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { copyOf, writeCopy, type Copy } from './bundledCopy.ts';

describe('a copy beside the bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bundled-copy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = pathToFileURL(`${dir}/`);
  // Stands in for esbuild: writes the source as it is (it requires nothing to bundle).
  const build = async (options: { stdin: { contents: string }; outfile: string }) => writeFileSync(options.outfile, options.stdin.contents);

  test('written: exercised, its code cache beside it, and used for the version it copies only', async () => {
    const exercised: unknown[] = [];
    const failed = await writeCopy(build, 'module.exports = { VERSION: "1.2.3", answer: 42 };', new URL('copy.cjs', at), at, (exports) => exercised.push(exports));
    expect(failed).toBeUndefined();
    expect(exercised).toEqual([{ VERSION: '1.2.3', answer: 42 }]);
    expect(existsSync(join(dir, 'copy.cjs.v8cache'))).toBe(true);
    expect(copyOf<Copy & { answer: number }>(at, 'copy.cjs', '1.2.3')?.answer).toBe(42);
    expect(copyOf(at, 'copy.cjs', '1.2.4')).toBeUndefined();
    expect(copyOf(at, 'none.cjs', '1.2.3')).toBeUndefined();
  });

  test('a copy that cannot be made says why in a line, and leaves nothing to use', async () => {
    const failing = async () => {
      throw new Error('Could not resolve "left-pad"\nat stdin:1:20');
    };
    expect(await writeCopy(failing, 'require("left-pad")', new URL('broken.cjs', at), at, () => undefined)).toBe('Could not resolve "left-pad"');
    expect(existsSync(fileURLToPath(new URL('broken.cjs', at)))).toBe(false);
  });
});
