import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { captureIO } from '#harness/testing/captureIO.ts';
import { dirSnapshot } from '#harness/testing/dirSnapshot.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * A run writes its reports beside the last ones and swaps them in once complete (cli/reportFiles.ts
 * stageReports): one that stops before judging, on a usage or input error (exit 2), or is killed,
 * leaves the last reports byte for byte.
 */
const tmp = tempDirs('svc-reports-kept-');
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/svc-conformance.js');
const QUICK = ['--model', 'svc-v4-flash', '--clients', 'none', '--now', '2026-06-01T00:00:00Z', '--quiet'];

let dir: string;
let before: Record<string, string>;

beforeAll(async () => {
  dir = join(tmp(), 'reports');
  mkdirSync(dir);
  // A clone's reports/ holds files of its own beside a run's.
  writeFileSync(join(dir, 'README.md'), 'the report schemas live here\n');
  const io = captureIO();
  expect(await main(['run', '--report-dir', dir, '--only', 'endpoint.chat-completions-on-base-url.served', ...QUICK], io), io.text()).toBe(0);
  before = dirSnapshot(dir);
  expect(Object.keys(before)).toEqual(expect.arrayContaining(['summary.md', 'summary.json', 'index.html', 'emulator/svc-v4-flash/report.json', 'README.md']));
}, 60_000);

describe('a run that exits 2 before judging leaves the previous reports/ byte for byte', () => {
  const config = () => {
    const f = join(tmp(), 'svc-conformance.yaml');
    writeFileSync(f, 'models: [svc-v4-flash]\nconcurency: 4\n');
    return f;
  };
  test.each([
    // Ran nothing: the load phase runs only with --load N, and says so.
    ['--only load without --load', ['--only', 'load'], /--only "load" selects the load phase, which a run has only with --load N/],
    ['--only of a check that does not exist', ['--only', 'nosuchcheck'], /--only "nosuchcheck" matches no check/],
    ['a bad value', ['--concurrency', '0'], /--concurrency must be a positive integer/],
    ['a target that cannot start: its key variable is empty', ['--base-url', 'http://127.0.0.1:9', '--api-key-env', 'SVC_REPORTS_KEPT_NO_SUCH_KEY'], /SVC_REPORTS_KEPT_NO_SUCH_KEY holds no API key/],
    ['a config file with a wrong key', () => ['--config', config()], /unknown key `concurency`/],
  ] as const)('%s', async (_name, args, said) => {
    const io = captureIO();
    const code = await main(['run', '--report-dir', dir, ...QUICK, ...(typeof args === 'function' ? args() : args)], io);
    expect(code, io.text()).toBe(2);
    expect(io.text()).toMatch(said);
    expect(dirSnapshot(dir)).toEqual(before);
  });
});

test('a run killed while it runs (SIGKILL: nothing of it can react) leaves them byte for byte too', async () => {
  const child = spawn(process.execPath, [BIN, 'run', '--report-dir', dir, '--model', 'svc-v4-flash', '--concurrency', '1', '--clients', 'none'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const ended = new Promise<NodeJS.Signals | null>((done) => child.on('close', (_code, signal) => done(signal)));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (/\n {2}\[\s*1\//.test(stderr)) child.kill('SIGKILL');
  });
  expect(await ended, stderr).toBe('SIGKILL');
  expect(dirSnapshot(dir)).toEqual(before);
}, 60_000);
