import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadWithCodeCache } from './codeCache.ts';

describe('loadWithCodeCache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-code-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'copy.cjs');
  const source = (answer: number) => `const path = require('node:path');\nfunction answer() { return ${answer}; }\nmodule.exports = { answer, base: path.basename(__filename), same: this === module.exports };\n`;

  test('a module with no cache beside it loads as required, then with the cache it wrote', () => {
    writeFileSync(file, source(42));
    const first = loadWithCodeCache(file);
    expect(first.cache).toBe('none');
    expect(first.exports).toMatchObject({ base: 'copy.cjs', same: true });
    expect((first.exports as { answer(): number }).answer()).toBe(42);
    first.writeCache();
    const second = loadWithCodeCache(file);
    expect(second.cache).toBe('used');
    expect((second.exports as { answer(): number }).answer()).toBe(42);
  });

  test('a cache of other source is rejected, and the module is the file as it is now', () => {
    writeFileSync(file, source(42));
    loadWithCodeCache(file).writeCache();
    writeFileSync(file, source(7));
    const loaded = loadWithCodeCache(file);
    expect(loaded.cache).toBe('rejected');
    expect((loaded.exports as { answer(): number }).answer()).toBe(7);
  });

  test('import() inside the module goes to Node\'s own loader', async () => {
    writeFileSync(file, `module.exports = () => import('node:path');\n`);
    const load = loadWithCodeCache(file).exports as () => Promise<{ basename: (p: string) => string }>;
    expect((await load()).basename('/a/b.txt')).toBe('b.txt');
  });
});
