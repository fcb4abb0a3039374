import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { DEFAULT_DESCRIPTION, descriptionStatus } from './description.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const nowhere = () => false;

describe('descriptionStatus: what a test that reads the service description does', () => {
  test('present (beside the repo, or where SVC_DESCRIPTION says): it runs on that file', () => {
    expect(descriptionStatus({}, () => true)).toEqual({ present: true, path: DEFAULT_DESCRIPTION });
    expect(descriptionStatus({ SVC_DESCRIPTION: '/tmp/desc.md' }, (p) => p === '/tmp/desc.md')).toEqual({ present: true, path: '/tmp/desc.md' });
  });

  test('absent on a bare clone: skipped, the reason naming what to provide', () => {
    const status = descriptionStatus({}, nowhere);
    expect(status).toMatchObject({ present: false, skip: expect.stringContaining('give SVC_DESCRIPTION=path/to/service-description.md') });
    expect(descriptionStatus({ SVC_DESCRIPTION: 'missing.md' }, nowhere)).toMatchObject({ skip: expect.stringContaining('SVC_DESCRIPTION=missing.md names no file') });
  });

  test('absent under CI=true: a failure, since CI always provides it', () => {
    expect(descriptionStatus({ CI: 'true' }, nowhere)).toMatchObject({ present: false, fail: expect.stringContaining('CI puts the shared/ folder beside the repo') });
  });
});

/** Runs the description-dependent test file in a child vitest with `env`; its exit code and report. */
function runCoverage(env: NodeJS.ProcessEnv): { status: number | null; report: string } {
  const { CI: _ci, ...rest } = process.env;
  const out = join(REPO, 'node_modules', '.vitest-description-report.json');
  const child = spawnSync(process.execPath, [join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'harness/spec/coverage.test.ts', '--reporter=json', `--outputFile=${out}`], {
    cwd: REPO,
    env: { ...rest, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const report = existsSync(out) ? readFileSync(out, 'utf8') : '';
  rmSync(out, { force: true });
  return { status: child.status, report: `${report}\n${child.stdout}\n${child.stderr}` };
}

describe('the description-dependent tests, run as a bare clone would', () => {
  test('without the description they skip with the reason (exit 0), and under CI=true they fail', () => {
    const bare = runCoverage({ SVC_DESCRIPTION: '/nonexistent/service-description.md' });
    expect(bare.status).toBe(0);
    expect(bare.report).toContain('SVC_DESCRIPTION=/nonexistent/service-description.md names no file');
    expect(bare.report).toMatch(/"status":\s*"(skipped|pending)"/);
    const ci = runCoverage({ SVC_DESCRIPTION: '/nonexistent/service-description.md', CI: 'true' });
    expect(ci.status).not.toBe(0);
    expect(ci.report).toContain('CI puts the shared/ folder beside the repo');
  }, 240_000);
});
