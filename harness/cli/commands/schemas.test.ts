import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAjv } from '#harness/derive/validators/createAjv.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from '../main.ts';
import type { SchemaIndex } from './schemas.ts';

const { spec } = loadSpec();
const objects = Object.keys(spec.objects);

function readJson<T = Record<string, unknown>>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

describe('svc-conformance schemas', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-schemas-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('writes every object in both profiles, an index, and says what it wrote', async () => {
    const io = captureIO();
    const { out, err } = io;
    expect(await main(['schemas', '--out', dir], io)).toBe(0);
    expect(err).toEqual([]);
    expect(out.join('\n')).toContain(`wrote ${objects.length * 2} schemas`);
    expect(out.join('\n')).toContain(dir);

    const index = readJson<SchemaIndex>(join(dir, 'index.json'));
    expect(index.revision).toBe(spec.revision);
    expect(index.profiles).toEqual(['default', 'strict']);
    expect(index.schemas).toHaveLength(objects.length * 2);
    for (const profile of ['default', 'strict'] as const) {
      for (const name of objects) {
        const file = join(dir, profile, `${name}.schema.json`);
        expect(existsSync(file), file).toBe(true);
        const text = readFileSync(file, 'utf8');
        expect(text.endsWith('}\n')).toBe(true);
        expect(text).toContain('\n  "');
        const entry = index.schemas.find((e) => e.object === name && e.profile === profile);
        expect(entry?.file).toBe(`${profile}/${name}.schema.json`);
        expect(entry?.$id).toBe((JSON.parse(text) as { $id: string }).$id);
      }
    }
  });

  test('every written schema compiles with the harness ajv', async () => {
    expect(await main(['schemas', '--out', dir], captureIO())).toBe(0);
    const index = readJson<SchemaIndex>(join(dir, 'index.json'));
    for (const entry of index.schemas) {
      const schema = readJson(join(dir, entry.file));
      expect(() => createAjv().compile(schema), entry.file).not.toThrow();
    }
    const strict = readJson(join(dir, 'strict', 'chat_completion.schema.json'));
    expect(strict.additionalProperties).toBe(false);
    const lenient = readJson(join(dir, 'default', 'chat_completion.schema.json'));
    expect(lenient.additionalProperties).toBeUndefined();
    const judge = createAjv().compile(readJson(join(dir, 'default', 'chat_completion_request.schema.json')));
    expect(judge({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'hi' }] })).toBe(true);
    expect(judge({ model: 'svc-v4-flash', messages: [] })).toBe(false);
  });

  test('--profile strict writes only the strict profile', async () => {
    const io = captureIO();
    const { out } = io;
    expect(await main(['schemas', '--out', dir, '--profile', 'strict'], io)).toBe(0);
    expect(existsSync(join(dir, 'strict'))).toBe(true);
    expect(existsSync(join(dir, 'default'))).toBe(false);
    expect(readJson<SchemaIndex>(join(dir, 'index.json')).schemas).toHaveLength(objects.length);
    expect(out.join('\n')).toContain(`wrote ${objects.length} schemas`);
  });

  test('a bad --profile is a usage error naming the flag and the allowed values', async () => {
    const io = captureIO();
    const { out, err } = io;
    expect(await main(['schemas', '--out', dir, '--profile', 'loose'], io)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(/--profile/);
    expect(err.join('\n')).toMatch(/default, strict, both/);
    expect(existsSync(join(dir, 'index.json'))).toBe(false);
  });

  test('a missing --out is a usage error naming the flag', async () => {
    const io = captureIO();
    const { err } = io;
    expect(await main(['schemas'], io)).toBe(2);
    expect(err.join('\n')).toMatch(/--out is required/);
  });

  test('an unknown flag is a usage error naming it', async () => {
    const io = captureIO();
    const { err } = io;
    expect(await main(['schemas', '--out', dir, '--bogus'], io)).toBe(2);
    expect(err.join('\n')).toMatch(/--bogus/);
  });

  test('--help prints the full help', async () => {
    const io = captureIO();
    const { out } = io;
    expect(await main(['schemas', '--help'], io)).toBe(0);
    const help = out.join('\n');
    expect(help).toMatch(/^Usage: svc-conformance schemas --out DIR/);
    expect(help).toContain('--profile NAME');
    expect(help).toContain('Exit codes:');
  });
});
