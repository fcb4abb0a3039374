import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';

/**
 * The composite GitHub Action (action.yml) run as GitHub runs it: each step in order, `if:` decided
 * (success(), always(), inputs compared), `${{ inputs.* }}` and `${{ steps.*.outputs.* }}` put into
 * the step's env, every `run:` written to a file and started as `bash --noprofile --norc -eo pipefail
 * FILE` in a workspace, with GITHUB_ACTION_PATH (this repository), GITHUB_STEP_SUMMARY and
 * GITHUB_OUTPUT files. Steps that `uses:` another action are not run, only recorded with their
 * `with:`. The install step is skipped (SVC_ACTION_SKIP_INSTALL=1): this tree is installed.
 */
const REPO = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const KEY = 'sk-action-test-DO-NOT-PRINT-7f3a91';
/** A user's shell: no settings of the npm script or the vitest worker that started this test. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && !k.startsWith('VITEST') && !k.startsWith('GITHUB_') && k !== 'NODE_ENV' && k !== 'SVC_API_KEY'));

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}
const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as Action;

interface Ran {
  code: number;
  log: string;
  summary: string;
  outputs: Record<string, string>;
  used: { uses: string; with: Record<string, string> }[];
  workspace: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function readOutputs(file: string): Record<string, string> {
  return Object.fromEntries(readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

function runAction(given: Record<string, string>): Ran {
  for (const name of Object.keys(given)) expect(action.inputs, `input ${name}`).toHaveProperty(name);
  const inputs = { ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])), ...given };
  const workspace = mkdtempSync(join(tmpdir(), 'svc-action-'));
  dirs.push(workspace);
  const summaryFile = join(workspace, '.step-summary.md');
  writeFileSync(summaryFile, '');
  const stepOutputs: Record<string, Record<string, string>> = {};
  const expr = (text: string): string =>
    text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => {
      const input = /^inputs\.([\w-]+)$/.exec(e);
      if (input) return inputs[input[1]!] ?? '';
      const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e);
      if (output) return stepOutputs[output[1]!]?.[output[2]!] ?? '';
      throw new Error(`action.yml: the test cannot evaluate \${{ ${e} }}`);
    });
  let failed = false;
  const condition = (cond: string | undefined): boolean =>
    (cond ?? 'success()').split('&&').every((part) => {
      const p = part.trim();
      if (p === 'always()') return true;
      if (p === 'success()') return !failed;
      const cmp = /^inputs\.([\w-]+) (==|!=) '(.*)'$/.exec(p);
      if (cmp) return (inputs[cmp[1]!] === cmp[3]) === (cmp[2] === '==');
      throw new Error(`action.yml: the test cannot evaluate if: ${p}`);
    });

  let log = '';
  let code = 0;
  const used: Ran['used'] = [];
  action.runs.steps.forEach((step, i) => {
    if (!condition(step.if)) return;
    if (step.uses !== undefined) {
      used.push({ uses: step.uses, with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expr(String(v))])) });
      return;
    }
    const script = join(workspace, `.step-${i}.sh`);
    writeFileSync(script, step.run!);
    const outputFile = join(workspace, `.step-${i}.out`);
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expr(String(v))]));
    const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: workspace,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...ENV, ...env, GITHUB_ACTION_PATH: REPO, GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: outputFile, SVC_ACTION_SKIP_INSTALL: '1' },
    });
    log += ran.stdout + ran.stderr;
    if (step.id !== undefined) stepOutputs[step.id] = readOutputs(outputFile);
    code = ran.status ?? -1;
    if (code !== 0) failed = true;
  });
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, expr(v.value)]));
  return { code, log, summary: readFileSync(summaryFile, 'utf8'), outputs, used, workspace };
}

/** Every file the run wrote in the workspace, as text: reports, summary, outputs. */
function everythingWritten(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8', withFileTypes: false })
    .map((f) => join(dir, f))
    .filter((f) => !f.endsWith('.sh'))
    .map((f) => {
      try {
        return readFileSync(f, 'utf8');
      } catch {
        return ''; // a directory
      }
    })
    .join('\n');
}

const FAST = '--model svc-v4-flash --only usage.* --now 2026-06-01T00:00:00Z';

describe('the GitHub Action (action.yml) run as GitHub runs its steps', () => {
  test('its run steps are bash and read their inputs from env, never from ${{ }} in the script', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps.filter((s) => s.run !== undefined)) {
      expect(step.shell, step.name).toBe('bash');
      expect(step.run, step.name).not.toContain('${{');
    }
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['base-url', 'models', 'api-key', 'known-failures', 'extra-flags', 'upload-reports', 'report-dir']));
    expect(action.runs.steps.find((s) => s.id === 'harness')?.env?.SVC_API_KEY).toBe('${{ inputs.api-key }}');
  });

  test('against the embedded emulator, clean: exit 0, the summary appended, outcome=pass exit-code=0, no ::error, the reports uploaded', () => {
    const ran = runAction({ 'api-key': KEY, 'extra-flags': FAST });
    expect(ran.code, ran.log).toBe(0);
    expect(ran.outputs).toEqual({ outcome: 'pass', 'exit-code': '0', 'report-dir': 'reports' });
    expect(ran.summary).toMatch(/^# ✅ PASS/);
    expect(ran.summary).toBe(`${readFileSync(join(ran.workspace, 'reports', 'summary.md'), 'utf8')}\n`);
    expect(ran.log).not.toContain('::error');
    expect(ran.used).toContainEqual({ uses: 'actions/upload-artifact@v4', with: { name: 'svc-conformance-reports', path: 'reports', 'if-no-files-found': 'ignore' } });
    expect(everythingWritten(ran.workspace) + ran.log).not.toContain(KEY);
  }, 120_000);

  test('with a fault: exit 1, one ::error per failing cause, outcome=fail exit-code=1, and the key nowhere in what was written', () => {
    const ran = runAction({ 'api-key': KEY, models: 'svc-v4-flash', 'extra-flags': `--only usage.* --fault usage-total-wrong`, 'report-dir': 'out/conformance', 'upload-reports': 'false' });
    expect(ran.code, ran.log).toBe(1);
    expect(ran.outputs).toEqual({ outcome: 'fail', 'exit-code': '1', 'report-dir': 'out/conformance' });
    expect(ran.summary).toMatch(/^# ❌ FAIL/);
    const record = JSON.parse(readFileSync(join(ran.workspace, 'out', 'conformance', 'emulator', 'svc-v4-flash', 'report.json'), 'utf8')) as { causes: { message: string; severity: string }[] };
    const failing = record.causes.filter((c) => c.severity === 'must');
    expect(failing.length).toBeGreaterThan(0);
    const errors = ran.log.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(failing.length);
    for (const [i, cause] of failing.entries()) {
      expect(errors[i]).toMatch(/^::error title=svc-conformance \[must\] svc-v4-flash at emulator::/);
      expect(errors[i]).toContain(cause.message);
    }
    expect(errors.join('\n')).toContain('usage.total.equals-prompt-plus-completion');
    expect(ran.used.map((u) => u.uses)).not.toContain('actions/upload-artifact@v4');
    expect(everythingWritten(ran.workspace) + ran.log).not.toContain(KEY);
  }, 120_000);

  test('a usage error (exit 2, nothing written): outcome=error, one ::error saying so, the job fails with 2', () => {
    const ran = runAction({ 'extra-flags': '--only no-such-check-anywhere' });
    expect(ran.code).toBe(2);
    expect(ran.outputs).toMatchObject({ outcome: 'error', 'exit-code': '2' });
    expect(ran.log.split('\n').filter((l) => l.startsWith('::error '))).toEqual([expect.stringMatching(/^::error title=svc-conformance::exited 2 before writing/)]);
    expect(ran.summary).toContain('exited 2 before writing a summary');
  }, 120_000);
});
