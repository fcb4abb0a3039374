import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

const SPEC = resolve(dirname(fileURLToPath(import.meta.url)), '../../spec');
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
