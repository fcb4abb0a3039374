import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test, type TestContext } from 'vitest';
import { tempDirs } from '#harness/testing/tempDirs.ts';

/**
 * The package as another project gets it: `npm pack` (which runs `prepare`, the build), then
 * `npm install <tarball>` into an empty folder and `npx svc-conformance ...` there. The pack runs in
 * a copy of this working tree, so the build never rewrites the dist/ other tests are running.
 * Slow (an install: tens of seconds); skipped, saying so, only where npm itself is missing.
 */
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = tempDirs('svc-pack-');
const NPM_MISSING = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0 ? undefined : 'npm is not on PATH: the package cannot be packed or installed here';
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** A user's shell: no settings of the npm script or the vitest worker that started this test. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && !k.startsWith('VITEST') && k !== 'NODE_ENV'));

function sh(cwd: string, command: string, args: string[], timeoutMs: number): Promise<Ran> {
  return new Promise((done) => {
    execFile(command, args, { cwd, env: ENV, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      done({ code, stdout, stderr: err !== null && code === -1 ? `${stderr}\n${err.message}` : stderr });
    });
  });
}

/** What a clone holds with this working tree's changes: tracked and untracked files, none ignored. */
function copyWorkingTree(to: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${REPO}: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter((f) => f !== '' && existsSync(join(REPO, f)))) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(REPO, file), join(to, file));
  }
  // The build needs esbuild; `npm ci` in a clone would install the same tree.
  symlinkSync(join(REPO, 'node_modules'), join(to, 'node_modules'), 'dir');
}

/** Skips the test, saying why, where npm is missing; never silently. */
function needsNpm(ctx: TestContext): void {
  if (NPM_MISSING !== undefined) ctx.skip(NPM_MISSING);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('the npm package: packed, installed into an empty folder, run there', () => {
  let consumer = '';
  let installed = '';
  const npx = (args: string[], timeoutMs = 180_000) => sh(consumer, 'npx', ['--no', '--', 'svc-conformance', ...args], timeoutMs);

  beforeAll(async () => {
    if (NPM_MISSING !== undefined) return;
    const clone = tmp();
    const packed = tmp();
    consumer = tmp();
    copyWorkingTree(clone);
    const pack = await sh(clone, 'npm', ['pack', '--pack-destination', packed], 180_000);
    expect(pack.code, `npm pack: ${pack.stderr}`).toBe(0);
    const tarballs = readdirSync(packed).filter((f) => f.endsWith('.tgz'));
    expect(tarballs).toEqual([`svc-conformance-${VERSION}.tgz`]);
    writeFileSync(join(consumer, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true }, null, 2)}\n`);
    const install = await sh(consumer, 'npm', ['install', join(packed, tarballs[0]!), '--prefer-offline', '--no-audit', '--no-fund'], 300_000);
    expect(install.code, `npm install: ${install.stderr}`).toBe(0);
    installed = join(consumer, 'node_modules', 'svc-conformance');
  }, 600_000);

  test('ships the bundle, the bin, the spec and the schemas the CLI reads; no tests, no recordings, no build script', (ctx) => {
    needsNpm(ctx);
    const files = filesUnder(installed).map((f) => relative(installed, f));
    for (const f of ['dist/cli/main.js', 'dist/stamp.json', 'bin/svc-conformance.js', 'bin/dist.js', 'spec/service.yaml', 'spec/meta-schema.json', 'reports/report.schema.json', 'fixtures/fixture.schema.json', 'README.md']) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => /\.(test|bench)\.ts$/.test(f) || f.startsWith('harness/testing/') || f.startsWith('harness/bench/') || f.startsWith('scripts/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('fixtures/'))).toEqual(['fixtures/fixture.schema.json']);
    // Nothing transpiles at run time: tsx is a dev dependency, so the bin can only be running dist/.
    expect(existsSync(join(consumer, 'node_modules', 'tsx'))).toBe(false);
  });

  test('every package the bundle imports is a runtime dependency (or an optional one)', (ctx) => {
    needsNpm(ctx);
    // An optional dependency counts: the client checks import() theirs and skip, saying so, without it.
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; optionalDependencies?: Record<string, string> };
    const dependencies = { ...manifest.dependencies, ...manifest.optionalDependencies };
    const imported = new Set<string>();
    for (const file of filesUnder(join(installed, 'dist')).filter((f) => f.endsWith('.js'))) {
      // esbuild writes `import ... from "x";` from the start of a line, and `import("x")`.
      for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";|^import\s*"([^"]+)";|\bimport\(\s*"([^"]+)"\s*\)/gm)) {
        const spec = (m[1] ?? m[2] ?? m[3])!;
        if (!spec.startsWith('node:') && !spec.startsWith('.')) imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
    expect(imported.size).toBeGreaterThan(0);
    expect([...imported].filter((p) => dependencies[p] === undefined)).toEqual([]);
  });

  test('`npx svc-conformance --help` and `--version` answer', async (ctx) => {
    needsNpm(ctx);
    const help = await npx(['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: svc-conformance <command>/);
    const runHelp = await npx(['run', '--help']);
    expect(runHelp.stdout).toMatch(/^Usage: svc-conformance run/);
    expect((await npx(['--version'])).stdout.trim()).toBe(VERSION);
  });

  test('`npx svc-conformance run` against the embedded emulator exits 0 and writes every report', async (ctx) => {
    needsNpm(ctx);
    const run = await npx(['run', '--report-dir', 'reports', '--quiet']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stderr).toMatch(/svc-conformance: \d+ checks in/);
    const written = filesUnder(join(consumer, 'reports')).map((f) => relative(join(consumer, 'reports'), f));
    expect(written).toContain('summary.md');
    expect(written).toContain('summary.json');
    const cells = [...new Set(written.filter((f) => f.split('/').length === 3).map((f) => dirname(f)))];
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) for (const f of ['report.json', 'report.md', 'junit.xml', 'report.html']) expect(written).toContain(`${cell}/${f}`);
    // The report schema is found from the installed bundle: diff reads the reports back through it.
    const report = join('reports', cells[0]!, 'report.json');
    const diff = await npx(['diff', report, report]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('newly failing: 0');
  }, 300_000);

  test('`run --budget-usd` estimates the cost first (the dry run) and exits 0', async (ctx) => {
    needsNpm(ctx);
    const run = await npx(['run', '--model', 'svc-v4-flash', '--budget-usd', '1', '--report-dir', 'reports-budget', '--quiet']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stderr).toMatch(/estimated cost [\d.]+ USD/);
  }, 300_000);

  test('record, then replay the recording (the fixture schema is found from the installed bundle)', async (ctx) => {
    needsNpm(ctx);
    const record = await npx(['record', '--out', 'rec', '--model', 'svc-v4-flash', '--report-dir', 'reports-rec', '--quiet']);
    expect(record.code, record.stderr).toBe(0);
    expect(existsSync(join(consumer, 'rec', 'manifest.json'))).toBe(true);
    const replay = await npx(['run', '--fixtures', 'rec', '--fast', '--model', 'svc-v4-flash', '--report-dir', 'reports-replay', '--quiet']);
    expect(replay.code, replay.stderr).toBe(0);
    expect(existsSync(join(consumer, 'reports-replay', 'summary.md'))).toBe(true);
  }, 300_000);
});
