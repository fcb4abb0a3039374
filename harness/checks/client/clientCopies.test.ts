import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadWithCodeCache } from '#harness/core/codeCache.ts';
import { afterAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { main } from '#harness/cli/main.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { staleDist } from '#harness/testing/freshDist.ts';
import { clientCopyFile, requiredClient } from './clientCheck.ts';

const installed = (name: string) => (createRequire(import.meta.url)(`${name}/version`) as { VERSION: string }).VERSION;

describe('requiredClient: the build\'s one-file copy of a client serves only the version installed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-client-copy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = pathToFileURL(`${dir}/`);
  const copy = (version: string) => writeFileSync(join(dir, clientCopyFile('openai')), `module.exports = { client: { copy: true }, VERSION: ${JSON.stringify(version)} };\n`);

  test('a copy of the installed version is the client loaded, with that version', async () => {
    copy(installed('openai'));
    const [client, { VERSION }] = await requiredClient<{ copy?: true }>('openai', at);
    expect(client.copy).toBe(true);
    expect(VERSION).toBe(installed('openai'));
  });

  test('a copy of another version, or none, is passed over: the package in node_modules is the client', async () => {
    const other = mkdtempSync(join(tmpdir(), 'svc-client-copy-other-'));
    try {
      writeFileSync(join(other, clientCopyFile('openai')), 'module.exports = { client: { copy: true }, VERSION: "0.0.1" };\n');
      for (const where of [pathToFileURL(`${other}/`), pathToFileURL(`${tmpdir()}/svc-no-such-dir/`)]) {
        const [client, { VERSION }] = await requiredClient<{ copy?: true; default?: unknown }>('openai', where);
        expect(client.copy).toBeUndefined();
        expect(typeof client.default).toBe('function');
        expect(VERSION).toBe(installed('openai'));
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('a client that is not installed is missing, whatever copy lies beside: its version is asked of node_modules first', async () => {
    writeFileSync(join(dir, clientCopyFile('svc-no-such-client')), 'module.exports = { client: {}, VERSION: "1.0.0" };\n');
    await expect(requiredClient('svc-no-such-client', at)).rejects.toThrow(/svc-no-such-client/);
  });
});

const stale = staleDist();
const DIST = new URL('../../../dist/cli/', import.meta.url);

describe.skipIf(stale !== undefined)(`the bundle's copies of the default clients${stale ? ` (skipped: ${stale})` : ''}`, () => {
  test.each(['openai', '@anthropic-ai/sdk'])('%s is copied, of the version installed, and its code cache fits this Node', (name) => {
    const copied = loadWithCodeCache(fileURLToPath(new URL(clientCopyFile(name), DIST)));
    expect((copied.exports as { VERSION: string }).VERSION).toBe(installed(name));
    expect(copied.cache).toBe('used');
  });

  test('a run from the bundle (through the copies) says what a run from the sources (through node_modules) says of the answers that break the clients', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-client-copies-run-'));
    try {
      const faults = ['stream-no-role', 'messages-stream-out-of-order', 'messages-error-no-body'];
      const args = (json: string) => ['run', ...faults.flatMap((f) => ['--fault', f]), '--only', 'client.*', '--model', 'svc-v4-flash', '--now', '2026-06-01T00:00:00Z', '--report-dir', join(dir, json), '--json', join(dir, `${json}.json`), '--quiet'];
      const bundled = (await import(new URL('main.js', DIST).href)) as { main: typeof main };
      await bundled.main(args('bundle'), captureIO());
      await main(args('sources'), captureIO());
      const said = (json: string) =>
        (JSON.parse(readFileSync(join(dir, `${json}.json`), 'utf8')) as { records: { results: CheckResult[] }[] }).records
          .flatMap((r) => r.results)
          .map((r) => `${r.checkId}: ${r.verdict}${r.failures ? ` ${r.failures.map((f) => f.message).join(' | ')}` : ''}`)
          .sort();
      expect(said('bundle')).toEqual(said('sources'));
      expect(said('sources').filter((s) => s.includes(': fail breaks ')).length).toBeGreaterThanOrEqual(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
