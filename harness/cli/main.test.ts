import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_SPEC_DIR } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from './main.ts';
import { COMMANDS } from './commands/index.ts';

describe('svc-conformance', () => {
  test('--help lists every command and exits 0', async () => {
    const io = captureIO();
    expect(await main(['--help'], io)).toBe(0);
    for (const c of COMMANDS) expect(io.text()).toContain(c.name);
  });

  test('no command prints the usage and exits 2', async () => {
    const io = captureIO();
    expect(await main([], io)).toBe(2);
    expect(io.text()).toContain('Usage: svc-conformance <command>');
  });

  test('an unknown command is named, with what to do next', async () => {
    const io = captureIO();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(io.err.join('\n')).toMatch(/unknown command `frobnicate`.*--help/s);
  });

  test.each(COMMANDS.map((c) => c.name))('`%s --help` prints its usage and exits 0', async (name) => {
    const io = captureIO();
    expect(await main([name, '--help'], io)).toBe(0);
    expect(io.out.join('\n')).toMatch(new RegExp(`^Usage: svc-conformance ${name}`));
  });

  test('an unknown flag names the flag and exits 2', async () => {
    const io = captureIO();
    expect(await main(['check-spec', '--frob'], io)).toBe(2);
    expect(io.err.join('\n')).toContain("'--frob'");
    expect(io.err.join('\n')).toContain('check-spec --help');
  });

  test('run --fixtures with a directory that holds no recording is a usage error naming it, exit 2', async () => {
    const io = captureIO();
    expect(await main(['run', '--fixtures', 'fixtures/x'], io)).toBe(2);
    expect(io.err.join('\n')).toContain('is not a readable recording');
  });
});

describe('check-spec', () => {
  test('loads the shipped spec', async () => {
    const io = captureIO();
    expect(await main(['check-spec'], io)).toBe(0);
    expect(io.out.join('\n')).toMatch(/spec v2026-05 .* loads/);
  });

  test('a broken spec file is named with its line and column, exit 2, no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-spec-'));
    cpSync(DEFAULT_SPEC_DIR, dir, { recursive: true });
    const file = join(dir, 'limits.yaml');
    const text = readFileSync(file, 'utf8').replace('stop_sequences_max: { value: 4,', 'stop_sequences_max: { value: 4, value: 5,');
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('value: 5')) + 1;
    const io = captureIO();
    expect(await main(['check-spec', '--spec', dir], io)).toBe(2);
    const err = io.err.join('\n');
    expect(err).toMatch(new RegExp(`limits\\.yaml:${line}:\\d+`));
    expect(err).not.toMatch(/\n\s+at /);
  });
});
