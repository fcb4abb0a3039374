import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readConfigFile } from './configFile.ts';
import { CONFIG_KEYS } from './runOptions.ts';

function file(text: string): string {
  const f = join(mkdtempSync(join(tmpdir(), 'svc-config-')), 'svc-conformance.yaml');
  writeFileSync(f, text);
  return f;
}

describe('svc-conformance.yaml', () => {
  test('reads targets with their key variables and model maps', () => {
    const f = file('targets:\n  - base_url: https://a.example\n    api_key_env: A_KEY\n    model_map: { svc-v4-flash: a-fast }\n  - base_url: https://b.example\n');
    expect(readConfigFile(f).targets).toEqual([
      { baseUrl: 'https://a.example', apiKeyEnv: 'A_KEY', modelMap: { 'svc-v4-flash': 'a-fast' }, headers: [], without: [] },
      { baseUrl: 'https://b.example', apiKeyEnv: 'SVC_API_KEY', modelMap: {}, headers: [], without: [] },
    ]);
  });
  test('headers and header_env per target: a gateway that routes on its own headers', () => {
    process.env.SVC_CONFIG_TEST_TOKEN = 'tok-123456';
    try {
      const f = file('targets:\n  - base_url: https://gw.example\n    headers: { x-portkey-provider: openai }\n    header_env: { x-portkey-api-key: SVC_CONFIG_TEST_TOKEN }\n');
      expect(readConfigFile(f).targets[0]!.headers).toEqual([
        { name: 'x-portkey-provider', value: 'openai' },
        { name: 'x-portkey-api-key', value: 'tok-123456', env: 'SVC_CONFIG_TEST_TOKEN' },
      ]);
    } finally {
      delete process.env.SVC_CONFIG_TEST_TOKEN;
    }
  });
  test.each([
    ['targets: []\n', /:1:\d+ targets: a non-empty list/],
    ['targets:\n  - api_key_env: X\n', /:2:\d+ targets\.0\.base_url: required/],
    ['targets:\n  - base_url: https://a\n    colour: red\n', /:3:5 targets\.0\.colour: unknown key `colour`/],
    ['targets:\n  - base_url: https://a\n    model_map: [1]\n', /:3:\d+ targets\.0\.model_map: a mapping/],
    ['targets: [\n', /YAML syntax/],
    ['targets:\n  - base_url: https://a\n    header_env: { x-token: SVC_NO_SUCH_VARIABLE }\n', /:3:\d+ targets\.0\.header_env\.x-token: the environment variable SVC_NO_SUCH_VARIABLE holds no value/],
    ['targets:\n  - base_url: https://a\n    headers: [x]\n', /:3:\d+ targets\.0\.headers: a mapping from header names/],
  ])('a broken file names the file, line and field: %j', (text, message) => {
    const f = file(text);
    expect(() => readConfigFile(f)).toThrow(message);
    expect(() => readConfigFile(f)).toThrow(f);
  });
});

describe('run options in svc-conformance.yaml', () => {
  test('beside the targets: each option as given, a single string taken as a list of one', () => {
    const f = file('targets:\n  - base_url: https://a.example\nmodels: [svc-v4-flash]\nonly: stream\nskip: ["*.rejects-*"]\nstrict: true\nconcurrency: 8\ntimeout_ms: 30000\nwithout: [fim]\n');
    const read = readConfigFile(f);
    expect(read.targets.map((t) => t.baseUrl)).toEqual(['https://a.example']);
    expect(read.options).toEqual({ models: ['svc-v4-flash'], only: ['stream'], skip: ['*.rejects-*'], strict: true, concurrency: 8, timeout_ms: 30000, without: ['fim'] });
    expect(read.where('concurrency')).toBe(`${f}:7:14 concurrency`);
  });
  test('run options alone, no targets: allowed (the targets come from the flags or the emulator)', () => {
    const read = readConfigFile(file('models: [svc-v4-flash]\n'));
    expect(read.targets).toEqual([]);
    expect(read.options).toEqual({ models: ['svc-v4-flash'] });
  });
  test.each([
    ['', /:1:1 \/: holds neither targets nor run options/],
    ['# only a comment\n', /holds neither targets nor run options/],
    ['[1, 2]\n', /:1:1 \/: holds neither targets nor run options/],
    ['models: [svc-v4-flash]\ncolour: red\n', new RegExp(`:2:1 colour: unknown key \`colour\` \\(known: targets, ${[...CONFIG_KEYS.keys()].join(', ')}\\)`)],
    ['strict: yes please\n', /:1:9 strict: true or false/],
    ['concurrency: four\n', /:1:14 concurrency: an integer \(got "four"\)/],
    ['timeout_ms: 1.5\n', /:1:13 timeout_ms: an integer/],
    ['only: []\n', /:1:7 only: a list of strings/],
    ['skip: [1]\n', /:1:7 skip: a list of strings/],
    ['models: [svc-v4-flash]\nknown:\n  - check: stream.events.done-last\n', /:3:3 known: a non-empty string/],
  ])('a bad file names the file, the line and the field: %j', (text, message) => {
    const f = file(text);
    expect(() => readConfigFile(f)).toThrow(message);
    expect(() => readConfigFile(f)).toThrow(f);
  });
  test('a directory is not a config file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
    expect(() => readConfigFile(dir)).toThrow(`run: --config ${dir}: not a file`);
  });
});
