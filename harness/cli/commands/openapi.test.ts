import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { compileErrors, validate } from '@readme/openapi-parser';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from '../main.ts';

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const { spec } = loadSpec();

describe('svc-conformance openapi', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('writes a valid OpenAPI 3.1 JSON document into new parent directories and prints the path', async () => {
    const file = join(dir, 'nested', 'deeper', 'api.json');
    const io = captureIO();
    const { out, err } = io;
    expect(await main(['openapi', '--out', file], io)).toBe(0);
    expect(err).toEqual([]);
    expect(out.join('\n')).toContain(file);
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const doc = JSON.parse(text) as { openapi: string; info: { version: string }; components: { schemas: object } };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(spec.revision);
    expect(Object.keys(doc.components.schemas).sort()).toEqual(Object.keys(spec.objects).sort());
    const result = await validate(doc as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  test('writes YAML for .yaml and .yml, with the same content as the JSON', async () => {
    expect(await main(['openapi', '--out', join(dir, 'api.json')], captureIO())).toBe(0);
    const json: unknown = JSON.parse(readFileSync(join(dir, 'api.json'), 'utf8'));
    for (const name of ['api.yaml', 'api.yml']) {
      expect(await main(['openapi', '--out', join(dir, name)], captureIO())).toBe(0);
      const text = readFileSync(join(dir, name), 'utf8');
      expect(text.startsWith('openapi: 3.1.0\n')).toBe(true);
      expect(text).not.toMatch(/^\s*[^#\n]*: [&*]a\d/m);
      expect(parse(text)).toEqual(json);
    }
  });

  test('--profile strict closes the component schemas; a bad --profile is a usage error', async () => {
    const file = join(dir, 'strict.json');
    expect(await main(['openapi', '--out', file, '--profile', 'strict'], captureIO())).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { components: { schemas: Record<string, { additionalProperties?: boolean }> } };
    expect(doc.components.schemas.chat_completion?.additionalProperties).toBe(false);

    const io = captureIO();
    const { err } = io;
    expect(await main(['openapi', '--out', join(dir, 'x.json'), '--profile', 'both'], io)).toBe(2);
    expect(err.join('\n')).toMatch(/--profile must be one of default, strict/);
    expect(existsSync(join(dir, 'x.json'))).toBe(false);
  });

  test('a missing --out is a usage error naming the flag', async () => {
    const io = captureIO();
    const { out, err } = io;
    expect(await main(['openapi'], io)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(/openapi: --out is required/);
  });

  test('an unknown flag is a usage error naming it', async () => {
    const io = captureIO();
    const { err } = io;
    expect(await main(['openapi', '--out', join(dir, 'a.json'), '--format', 'yaml'], io)).toBe(2);
    expect(err.join('\n')).toMatch(/--format/);
  });

  test('--help prints the full help', async () => {
    const io = captureIO();
    const { out } = io;
    expect(await main(['openapi', '--help'], io)).toBe(0);
    const help = out.join('\n');
    expect(help).toMatch(/^Usage: svc-conformance openapi --out FILE/);
    expect(help).toContain('.yaml or .yml');
    expect(help).toContain('Exit codes:');
  });

  test('the real process writes the document and exits 0', async () => {
    const file = join(dir, 'x.json');
    const { stdout } = await promisify(execFile)(process.execPath, ['bin/svc-conformance.js', 'openapi', '--out', file], { cwd: REPO });
    expect(stdout).toContain(file);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { openapi: string }).openapi).toBe('3.1.0');
  }, 60_000);

  test('the real process exits 2 on a missing --out', async () => {
    const failure = await promisify(execFile)(process.execPath, ['bin/svc-conformance.js', 'openapi'], { cwd: REPO }).then(
      () => undefined,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(/--out is required/);
  }, 60_000);
});
