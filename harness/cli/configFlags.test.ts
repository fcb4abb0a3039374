import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { configFlags } from './configFlags.ts';
import { CONFIG_KEYS } from './runOptions.ts';
import { main } from './main.ts';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/svc-conformance.js');
const NOW = '2026-06-01T00:00:00Z';
const tmp = tempDirs('svc-config-flags-');

/** A working directory holding these files. */
function cwdWith(files: Record<string, string>): string {
  const dir = tmp();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

interface Bundle {
  records: { model: string; target: { baseUrl: string }; results: CheckResult[] }[];
}

/** The real CLI started in `cwd`, as a user starts it there; killed after `limitMs` (that expiry is the failure). */
function cliIn(cwd: string, args: string[], env: Record<string, string>, limitMs = 150_000): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

// Generous limits: a cold spec load on a busy machine takes seconds; only a hang should fail these.
describe('svc-conformance.yaml in the working directory', { timeout: 60_000 }, () => {
  test('absent: nothing is read, nothing is said', () => {
    const io = captureIO();
    expect(configFlags('run', {}, io, tmp())).toEqual({ values: {}, config: undefined, targets: [] });
    expect(io.err).toEqual([]);
  });

  test('every option with a key comes from the file, as its flag would (those the file once refused too)', () => {
    const cwd = cwdWith({ 'svc-conformance.yaml': 'runs: 3\nseed: 7\nrepeat: 2\nallow_flaky: true\nbudget_usd: 0.05\nnow: 2026-07-24T15:58:00Z\nreport_dir: out\nquiet: true\n' });
    const found = configFlags('run', {}, captureIO(), cwd);
    expect(found.values).toEqual({ runs: '3', seed: '7', repeat: '2', 'allow-flaky': true, 'budget-usd': '0.05', now: '2026-07-24T15:58:00Z', 'report-dir': 'out', quiet: true });
    // Checked as the flag is, named by file, line and key.
    for (const [line, message] of [['runs: 0', /:1:7 runs: must be a positive integer from 1 to 100000 \(got "0"\)\.$/], ['budget_usd: -1', /:1:13 budget_usd: must be a positive amount of USD such as 0\.05 \(got "-1"\)\.$/], ['now: yesterday', /:1:6 now: "yesterday" is not an ISO 8601 instant/]] as const) {
      expect(() => configFlags('run', {}, captureIO(), cwdWith({ 'svc-conformance.yaml': `${line}\n` })), line).toThrow(message);
    }
  });

  test('found: its targets are the run\'s, its options become flags, one line says so', () => {
    const cwd = cwdWith({ 'svc-conformance.yaml': 'targets:\n  - base_url: https://a.example\n  - base_url: https://b.example\nmodels: [svc-v4-flash]\nconcurrency: 2\nwithout: [fim]\n' });
    const io = captureIO();
    const found = configFlags('run', {}, io, cwd);
    expect(found).toMatchObject({ values: { model: ['svc-v4-flash'], concurrency: '2', without: 'fim' }, config: join(cwd, 'svc-conformance.yaml') });
    expect(found.targets.map((t) => t.baseUrl)).toEqual(['https://a.example', 'https://b.example']);
    expect(io.err).toEqual(['svc-conformance: using ./svc-conformance.yaml (targets: 2; options: models, concurrency, without)']);
  });

  test('.yml is found too; both at once is ambiguous, exit 2', async () => {
    const io = captureIO();
    const cwd = cwdWith({ 'svc-conformance.yml': 'strict: true\n' });
    expect(configFlags('run', {}, io, cwd).values).toEqual({ strict: true });
    expect(io.err).toEqual(['svc-conformance: using ./svc-conformance.yml (no targets; options: strict)']);
    const both = cwdWith({ 'svc-conformance.yml': 'strict: true\n', 'svc-conformance.yaml': 'strict: true\n' });
    expect(() => configFlags('run', {}, io, both)).toThrow(/both \.\/svc-conformance\.yaml and \.\/svc-conformance\.yml/);
  });

  test('--config overrides it: the found file is not even read', () => {
    const cwd = cwdWith({ 'svc-conformance.yaml': 'not: [valid\n' });
    const other = join(tmp(), 'other.yaml');
    writeFileSync(other, 'targets:\n  - base_url: https://other.example\nstrict: true\n');
    const io = captureIO();
    const given = configFlags('run', { config: other }, io, cwd);
    expect(given).toMatchObject({ values: { strict: true }, config: other });
    expect(given.targets.map((t) => t.baseUrl)).toEqual(['https://other.example']);
    expect(io.err).toEqual([]);
  });

  test('--base-url, --fixtures or --fault on the command line replace its targets, and the line says so', () => {
    const cwd = cwdWith({ 'svc-conformance.yaml': 'targets:\n  - base_url: https://a.example\nstrict: true\n' });
    for (const [flags, flag] of [[{ 'base-url': ['https://b.example'] }, '--base-url'], [{ fixtures: 'fixtures/x' }, '--fixtures'], [{ fault: ['stream-no-done'] }, '--fault']] as const) {
      const io = captureIO();
      expect(configFlags('run', flags, io, cwd)).toEqual({ values: { strict: true }, config: undefined, targets: [] });
      expect(io.err).toEqual([`svc-conformance: using ./svc-conformance.yaml (targets: 1, not used: ${flag} given; options: strict)`]);
    }
  });

  test('an explicit --config keeps its targets even beside --base-url, so that clash is still refused', () => {
    const file = join(tmp(), 'targets.yaml');
    writeFileSync(file, 'targets:\n  - base_url: https://a.example\n');
    expect(configFlags('run', { config: file, 'base-url': ['https://b.example'] }, captureIO(), tmp()).config).toBe(file);
  });

  test('record ignores it, saying so', () => {
    const cwd = cwdWith({ 'svc-conformance.yaml': 'targets:\n  - base_url: https://a.example\n' });
    const io = captureIO();
    expect(configFlags('record', {}, io, cwd)).toEqual({ values: {}, config: undefined, targets: [] });
    expect(io.err).toEqual(['svc-conformance: record ignores ./svc-conformance.yaml: a recording\'s target and options are given on its command line.']);
  });

  test.each([
    ['concurrency: 0\n', /^run: .*svc-conformance\.yaml:1:14 concurrency: must be a positive integer from 1 to 256 \(got "0"\)\.$/],
    ['timeout_ms: 5\n', /:1:13 timeout_ms: must be an integer from 100 to 3600000 \(got "5"\)\.$/],
    ['models: [svc-v4-flash, svc-v9]\n', /:1:9 models: svc-v9 is not a model of the spec/],
    ['without: [teleport]\n', /:1:10 without: "teleport" is no feature of the spec/],
  ])('a value its flag would refuse names the file, the line and the key: %j', (text, message) => {
    const cwd = cwdWith({ 'svc-conformance.yaml': text });
    expect(() => configFlags('run', {}, captureIO(), cwd)).toThrow(message);
  });
});

describe('every problem of a config file in one run', () => {
  test('two wrong keys: both named, each with file, line, column, the keys known and the one it likely meant; exit 2', async () => {
    const cwd = cwdWith({ 'svc-conformance.yaml': 'models: [svc-v4-flash]\nconcurency: 4\nstrict: true\ntimout_ms: 30000\n' });
    const file = join(cwd, 'svc-conformance.yaml');
    const io = captureIO();
    expect(await main(['run', '--config', file, '--quiet', '--report-dir', join(cwd, 'reports')], io)).toBe(2);
    const lines = io.err.join('\n').split('\n');
    expect(lines[0]).toBe(`run: ${file}: 2 problems:`);
    expect(lines[1]).toMatch(new RegExp(`^  ${file}:2:1 concurency: unknown key \`concurency\`: did you mean \`concurrency\`\\? \\(known: targets, models, .*\\)$`.replace(/[/]/g, '\\/')));
    expect(lines[2]).toMatch(new RegExp(`^  ${file}:4:1 timout_ms: unknown key \`timout_ms\`: did you mean \`timeout_ms\`\\? \\(known: targets, models, .*\\)$`.replace(/[/]/g, '\\/')));
  });

  test('a wrong key, a value its flag refuses and a broken target, all at once, in the order of the file', () => {
    const cwd = cwdWith({ 'svc-conformance.yaml': 'concurrency: 0\ntargets:\n  - base_url: https://a.example\n    api_key: X\n  - api_key_env: Y\ncolour: red\n' });
    let message = '';
    try {
      configFlags('run', {}, captureIO(), cwd);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split('\n').map((l) => l.replace(cwd, '.'))).toEqual([
      'run: ./svc-conformance.yaml: 4 problems:',
      '  ./svc-conformance.yaml:1:14 concurrency: must be a positive integer from 1 to 256 (got "0").',
      '  ./svc-conformance.yaml:4:5 targets.0.api_key: unknown key `api_key` (known: base_url, api_key_env, messages_base_url, empty_balance_key_env, model_map, headers, header_env, without)',
      '  ./svc-conformance.yaml:5:5 targets.1.base_url: required, a string',
      `  ./svc-conformance.yaml:6:1 colour: unknown key \`colour\` (known: targets, ${[...CONFIG_KEYS.keys()].join(', ')})`,
    ]);
  });
});

describe('a run with a config file', { timeout: 60_000 }, () => {
  test('found in the working directory: the run goes to its base URL, says so, and flags override its options', async () => {
    const { spec } = loadSpec();
    const emu = await startEmulator({ spec, now: () => new Date(NOW) });
    const cwd = cwdWith({
      // `only: [lifecycle]` selects nothing on svc-v4-flash: were it not overridden, the run would stop with exit 2.
      'svc-conformance.yaml': `targets:\n  - base_url: ${emu.url}\n    api_key_env: SVC_CWD_CONFIG_KEY\nmodels: [svc-v4-flash]\nonly: [lifecycle]\n`,
    });
    try {
      const r = await cliIn(cwd, ['run', '--only', 'schema.chat-completion', '--now', NOW, '--quiet', '--report-dir', join(cwd, 'reports'), '--json', join(cwd, 'all.json')], { SVC_CWD_CONFIG_KEY: emu.apiKey });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.split('\n')[0]).toBe('svc-conformance: using ./svc-conformance.yaml (targets: 1; options: models, only)');
      const bundle = JSON.parse(readFileSync(join(cwd, 'all.json'), 'utf8')) as Bundle;
      expect(bundle.records.map((rec) => [rec.target.baseUrl, rec.model])).toEqual([[emu.url, 'svc-v4-flash']]);
      const ids = bundle.records.flatMap((rec) => rec.results.map((x) => x.checkId));
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => id.includes('schema.chat-completion'))).toBe(true);
    } finally {
      await emu.close();
    }
  }, 200_000);

  test('--config with run options only: the embedded emulator, the file\'s models and selection', async () => {
    const dir = tmp();
    const file = join(dir, 'options.yaml');
    writeFileSync(file, 'models: [svc-v4-flash]\nonly: [schema.chat-completion]\n');
    const io = captureIO();
    const code = await main(['run', '--config', file, '--now', NOW, '--quiet', '--report-dir', join(dir, 'r'), '--json', join(dir, 'all.json')], io);
    expect(code, io.text()).toBe(0);
    const bundle = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as Bundle;
    expect(bundle.records.map((rec) => rec.model)).toEqual(['svc-v4-flash']);
    expect(bundle.records.flatMap((rec) => rec.results).every((x) => x.checkId.includes('schema.chat-completion'))).toBe(true);
  }, 120_000);

  test('a bad field stops the run before it starts, naming file, line and field, exit 2', async () => {
    const file = join(tmp(), 'svc-conformance.yaml');
    writeFileSync(file, 'models: [svc-v4-flash]\nstrict: maybe\n');
    const io = captureIO();
    expect(await main(['run', '--config', file, '--report-dir', join(tmp(), 'r')], io)).toBe(2);
    expect(io.err).toEqual([`run: ${file}:2:9 strict: true or false`]);
  });
});

describe('docs/config.md', () => {
  test('its config file example is a valid config file, read as it says', () => {
    const page = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/config.md'), 'utf8');
    const example = /^# Config file\n[\s\S]*?```yaml\n([\s\S]*?)```/m.exec(page)?.[1];
    expect(example).toBeDefined();
    const cwd = cwdWith({ 'svc-conformance.yaml': example! });
    process.env.GATEWAY_KEY = 'gw-secret';
    try {
      const io = captureIO();
      const { values, config } = configFlags('run', {}, io, cwd);
      expect(config).toBe(join(cwd, 'svc-conformance.yaml'));
      expect(values).toMatchObject({ model: ['svc-v4-flash', 'svc-v4-pro'], strict: true, concurrency: '8', 'timeout-ms': '30000', without: 'balance' });
      expect(io.err[0]).toMatch(/^svc-conformance: using \.\/svc-conformance\.yaml \(targets: 1; options: /);
    } finally {
      delete process.env.GATEWAY_KEY;
    }
  }, 60_000);
});
