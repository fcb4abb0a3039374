import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { dirSnapshot } from '#harness/testing/dirSnapshot.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';

/**
 * What adding a run option costs, shown on a copy of the repository: its row in the table
 * (cli/runOptions.ts), its feature (here, the run's time ceiling reading the new setting), and
 * docs/config.md written again by `npm run docs:config`. Then the copy type-checks (RunSettings
 * has the field, typed by the row's parser: runner/runConfig.ts OptionSettings), its command line
 * takes the flag and its config file the key, a bad value is refused in the flag's words, the
 * settings carry the field, the feature sees it, and the page matches the table: three files
 * changed, no more. The row has no default, so the field is optional; one with a default makes it
 * required, and a RunSettings written out whole by hand (a test's) must then name it too.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PARTS = ['harness', 'docs', 'scripts', 'spec', 'suites', 'bin'];
const tmp = tempDirs('svc-adding-option-');

/** Every file of the copy (node_modules aside), with its bytes, by path. */
const snapshot = (copy: string): Record<string, string> => Object.fromEntries(PARTS.flatMap((p) => Object.entries(dirSnapshot(join(copy, p))).map(([f, bytes]) => [`${p}/${f}`, bytes])));

/** `file` of the copy with `old` replaced once by `text`. */
function edit(copy: string, file: string, old: string, text: string): void {
  const before = readFileSync(join(copy, file), 'utf8');
  expect(before.split(old).length, `${file}: ${old}`).toBe(2);
  writeFileSync(join(copy, file), before.replace(old, text));
}

const node = (cwd: string, args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', ...args], { cwd, encoding: 'utf8' });

describe('adding a run option', () => {
  test('touches its row, its feature and the generated page', () => {
    const copy = tmp();
    for (const p of [...PARTS, 'package.json', 'tsconfig.json', 'vitest.config.ts']) cpSync(join(ROOT, p), join(copy, p), { recursive: true });
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(copy, 'node_modules'));
    const before = snapshot(copy);

    // The row: flag, config key, parser (an integer with its range), the settings field.
    const end = '] as const satisfies readonly RunOption[];';
    edit(copy, 'harness/cli/runOptions.ts', end, `  { flag: 'grace-ms', type: 'string', arg: 'N', help: ['time the run ceiling adds (default none)'], config: { key: 'grace_ms' }, value: integerIn(0, 60_000), sets: 'graceMs' },\n${end}`);
    // Its feature: the time ceiling reads the new setting.
    edit(copy, 'harness/runner/runCeiling.ts', 'return { ms: runsMs + SETUP_MS, parts };', 'return { ms: runsMs + SETUP_MS + (settings.graceMs ?? 0), parts };');
    // The page, written again as the build does.
    expect(node(copy, ['scripts/docs-config.ts'])).toContain('written to docs/config.md');

    // The copy type-checks: the new field is RunSettings', typed as its row reads it.
    execFileSync(process.execPath, [join(copy, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], { cwd: copy, encoding: 'utf8' });
    // The copy, as its modules now read: a probe outside it, so it counts among no file of the copy.
    const probe = join(tmp(), 'probe.ts');
    writeFileSync(
      probe,
      `import { parseFlags } from '${copy}/harness/cli/command.ts';
import { CONFIG_KEYS, flagsOf, readOptions, settingsOf } from '${copy}/harness/cli/runOptions.ts';
import { optionsReferenceIn, renderOptionsReference } from '${copy}/harness/cli/optionsDoc.ts';
import { runCeiling } from '${copy}/harness/runner/runCeiling.ts';
import { loadSpec } from '${copy}/harness/spec/load.ts';
import { readFileSync } from 'node:fs';
const { spec } = loadSpec();
const inputs = { spec: () => spec, features: () => [] };
const { values } = parseFlags('run', ['--grace-ms', '250'], flagsOf('run'));
const settings = settingsOf(readOptions('run', values, inputs));
const base = { command: 'run', models: ['svc-v4-flash'], only: ['schema.'], skip: [], clients: [], concurrency: 4, version: 'probe' };
let refused = '';
try { readOptions('run', { 'grace-ms': 'soon' }, inputs); } catch (err) { refused = err.message; }
console.log(JSON.stringify({
  settings: settings.graceMs,
  key: CONFIG_KEYS.get('grace_ms')?.flag,
  refused,
  ceiling: runCeiling(spec, [{}], { ...base, ...settings }, false).ms - runCeiling(spec, [{}], { ...base, ...settings, graceMs: undefined }, false).ms,
  page: optionsReferenceIn(readFileSync('${copy}/docs/config.md', 'utf8')) === renderOptionsReference(),
}));
`,
    );
    const seen = JSON.parse(node(copy, [probe])) as Record<string, unknown>;
    expect(seen).toEqual({ settings: 250, key: 'grace-ms', refused: 'run: --grace-ms must be an integer from 0 to 60000 (got "soon"), e.g. --grace-ms 1.', ceiling: 250, page: true });

    const after = snapshot(copy);
    const changed = Object.keys({ ...before, ...after }).filter((f) => before[f] !== after[f]);
    expect(changed.sort()).toEqual(['docs/config.md', 'harness/cli/runOptions.ts', 'harness/runner/runCeiling.ts']);
    expect(readFileSync(join(copy, 'docs/config.md'), 'utf8')).toMatch(/^\| `grace_ms` \| `--grace-ms N` \| an integer from 0 to 60000 \| — \|/m);
  }, 120_000);
});
