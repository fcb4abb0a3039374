import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { captureIO } from '#harness/testing/captureIO.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

const SPEC = resolve(dirname(fileURLToPath(import.meta.url)), '../../spec');
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/svc-conformance.js');
const tmp = tempDirs('svc-bad-input-');

/** Runs a command line that must be refused: exit 2, a short message, no stack frame, nothing run. */
async function refused(argv: string[]) {
  const io = captureIO();
  const code = await main([...argv, '--report-dir', join(tmp(), 'reports')], io);
  const err = io.err.join('\n');
  expect(code, err).toBe(2);
  expect(io.out).toEqual([]);
  expect(err.split('\n').length, err).toBeLessThanOrEqual(3);
  expect(err).not.toMatch(/\n\s+at /);
  return err;
}

describe('bad input to run and record: a short error naming what is wrong and what to do, exit 2', () => {
  test.each([
    [['--concurrency', '-1'], /--concurrency must be a positive integer .*"-1".*e\.g\. --concurrency 4/],
    [['--concurrency=-1'], /--concurrency must be a positive integer .*"-1"/],
    [['--concurrency', '0'], /--concurrency must be a positive integer .*"0"/],
    [['--concurrency', 'abc'], /--concurrency must be a positive integer .*"abc"/],
    [['--budget-usd', '-1'], /--budget-usd must be a positive amount of USD such as 0\.05 \(got "-1"\)/],
    [['--budget-usd', 'abc'], /--budget-usd must be a positive amount of USD .*"abc"/],
    [['--budget-usd', '0'], /--budget-usd must be a positive amount/],
    [['--now', 'yesterday'], /--now "yesterday" is not an ISO 8601 instant \(e\.g\. /],
    // As --model nosuch is: a map of a model the spec lacks would map nothing, silently.
    [['--model-map', 'nosuch=x'], /--model-map maps nosuch, which is not a model of the spec \(svc-v4-flash, .*\): the left side of SPEC_ID=THEIR_ID is the spec's id/],
    [['--bogus'], /Unknown option '--bogus'.*svc-conformance run --help/],
    [['--base-url', 'http://127.0.0.1:9', '--api-key-env', 'SVC_BAD_INPUT_NO_SUCH_KEY'], /SVC_BAD_INPUT_NO_SUCH_KEY holds no API key\. Export it/],
    [['--fixtures', '/nonexistent/svc-fixtures'], /--fixtures \/nonexistent\/svc-fixtures is not a readable recording.*svc-conformance record --out DIR/],
  ])('run %j', async (args, message) => {
    delete process.env['SVC_BAD_INPUT_NO_SUCH_KEY'];
    expect(await refused(['run', ...args])).toMatch(message);
  });

  test.each([
    [['--concurrency', '-1'], /--concurrency must be a positive integer/],
    [['--budget-usd', 'abc'], /--budget-usd must be a positive amount/],
    [[], /record: --out DIR is required/],
  ])('record %j', async (args, message) => {
    expect(await refused(['record', ...(args.length > 0 ? ['--out', tmp()] : []), ...args])).toMatch(message);
  });

  test('a broken spec file: the message names the file, the line and the field', async () => {
    const dir = tmp();
    cpSync(SPEC, dir, { recursive: true });
    const file = join(dir, 'models.yaml');
    const text = readFileSync(file, 'utf8');
    const broken = text.replace(/max_output_tokens: 384000/, 'max_output_tokens: true');
    expect(broken).not.toBe(text);
    writeFileSync(file, broken);
    const line = broken.split('\n').findIndex((l) => l.includes('max_output_tokens: true')) + 1;
    const err = await refused(['run', '--spec', dir]);
    expect(err).toContain(`${file}:${line}:`);
    expect(err).toContain('max_output_tokens');
  });

  test('YAML that does not parse: file and line', async () => {
    const dir = tmp();
    cpSync(SPEC, dir, { recursive: true });
    writeFileSync(join(dir, 'pricing.yaml'), 'pricing:\n  entries: [unclosed\n');
    const err = await refused(['run', '--spec', dir]);
    expect(err).toMatch(new RegExp(`${join(dir, 'pricing.yaml').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+ .*YAML syntax`));
  });
});

/** The real CLI in a child process, killed if it has not ended by `limitMs`: that expiry is the failure. */
function cliProcess(args: string[], limitMs: number, options: { closeStdout?: boolean } = {}): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before the command writes: its first line meets a broken pipe.
    if (options.closeStdout) child.stdout.destroy();
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, limitMs);
    if (!options.closeStdout) child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, killed });
    });
  });
}

/** A refusal as the user sees it: exit 2, one short message naming what is wrong, no stack frame, nothing on stdout. */
async function refusedAsGiven(argv: string[]) {
  const io = captureIO();
  const code = await main(argv, io);
  const err = io.err.join('\n');
  expect(code, err).toBe(2);
  expect(io.out).toEqual([]);
  expect(err.split('\n').length, err).toBeLessThanOrEqual(2);
  expect(err).not.toMatch(/\n\s+at /);
  return err;
}

describe('every path a user names is checked before anything runs: a message, exit 2', { timeout: 60_000 }, () => {
  test('--spec naming a missing directory, or a file', async () => {
    expect(await refusedAsGiven(['run', '--spec', '/nonexistent/svc-spec'])).toBe('--spec /nonexistent/svc-spec: no such directory. --spec names a directory holding service.yaml.');
    const file = join(SPEC, 'service.yaml');
    expect(await refusedAsGiven(['run', '--spec', file])).toMatch(`--spec ${file}: not a directory`);
    expect(await refusedAsGiven(['schemas', '--out', tmp(), '--spec', '/nonexistent/svc-spec'])).toMatch('no such directory');
  });

  test('--report-dir under a file: refused before the run, nothing sent', async () => {
    const file = join(tmp(), 'plain');
    writeFileSync(file, '');
    expect(await refusedAsGiven(['run', '--model', 'svc-v4-flash', '--only', 'schema.', '--report-dir', join(file, 'reports')])).toBe(
      `run: --report-dir ${join(file, 'reports')}: ${file} is a file, not a directory. Choose a directory you can write to.`,
    );
  });

  test('--json that cannot be written is refused before the (paid) run, not after it', async () => {
    const dir = tmp();
    // A live target that would count every request: it must see none.
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(500).end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    process.env.SVC_BAD_INPUT_JSON_KEY = 'sk-test';
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const err = await refusedAsGiven(['run', '--base-url', url, '--api-key-env', 'SVC_BAD_INPUT_JSON_KEY', '--model', 'svc-v4-flash', '--report-dir', join(dir, 'r'), '--json', dir]);
      expect(err).toBe(`run: --json ${dir}: ${dir} is a directory; --json names a file. Choose a file in a directory you can write to.`);
      expect(requests).toBe(0);
    } finally {
      delete process.env.SVC_BAD_INPUT_JSON_KEY;
      await new Promise((ok) => server.close(ok));
    }
  });

  test('record --out under a file', async () => {
    const file = join(tmp(), 'plain');
    writeFileSync(file, '');
    expect(await refusedAsGiven(['record', '--out', join(file, 'rec'), '--report-dir', join(tmp(), 'r')])).toMatch(`record: --out ${join(file, 'rec')}: ${file} is a file, not a directory`);
  });

  test('schemas --out and openapi --out that cannot be written', async () => {
    const file = join(tmp(), 'plain');
    writeFileSync(file, '');
    expect(await refusedAsGiven(['schemas', '--out', join(file, 'schemas')])).toMatch(`schemas: --out ${join(file, 'schemas')}: ${file} is a file, not a directory`);
    expect(await refusedAsGiven(['openapi', '--out', join(file, 'openapi.json')])).toMatch(`openapi: --out ${join(file, 'openapi.json')}: ${file} is a file, not a directory`);
    const dir = tmp();
    expect(await refusedAsGiven(['openapi', '--out', dir])).toMatch(`${dir} is a directory; --out names a file`);
  });

  test('emulate --port already taken', async () => {
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    try {
      const port = (taken.address() as AddressInfo).port;
      expect(await refusedAsGiven(['emulate', '--port', String(port)])).toBe(
        `emulate: --port ${port} is taken on 127.0.0.1: another process listens there. Choose another port, or --port 0 for any free one. (EADDRINUSE)`,
      );
    } finally {
      await new Promise((ok) => taken.close(ok));
    }
  });

  test('emulate --host that does not resolve', async () => {
    // .invalid never resolves (RFC 2606); without a name service the lookup fails too, as EAI_AGAIN.
    expect(await refusedAsGiven(['emulate', '--host', 'svc-no-such-host.invalid'])).toMatch(/^emulate: --host svc-no-such-host\.invalid (does not resolve|could not be resolved)/);
  }, 60_000);

  // In a child process: Node's recursive mkdir spun there in C++, deaf to the test's own timeout.
  test('run --report-dir under a dangling symbolic link (or /proc) ends at once with the reason, exit 2', async () => {
    const dir = tmp();
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling'));
    const paths = [join(dir, 'dangling', 'reports'), ...(existsSync('/proc/self') ? ['/proc/svc-nope'] : [])];
    for (const path of paths) {
      const r = await cliProcess(['run', '--model', 'svc-v4-flash', '--only', 'schema.', '--report-dir', path], 90_000);
      expect(r.killed, `still running after 90 s: ${path}`).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^run: --report-dir ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: cannot create the directory`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 200_000);
});

describe('a broken pipe on stdout ends the command quietly, with its own exit code', () => {
  test.each([
    [['emulate', '--list-faults'], 0],
    [['--help'], 0],
  ])('%j with its reader gone', async (args, code) => {
    const r = await cliProcess(args, 90_000, { closeStdout: true });
    expect(r.killed).toBe(false);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(code);
  }, 100_000);

  test('diff A B | head: the reader closes, diff ends quietly', async () => {
    const dir = tmp();
    const file = join(dir, 'report.json');
    writeFileSync(file, JSON.stringify(sampleRecord()));
    const r = await cliProcess(['diff', file, file], 90_000, { closeStdout: true });
    expect(r.killed).toBe(false);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 100_000);
});
