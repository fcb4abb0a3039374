import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test, vi } from 'vitest';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { DIST_ENTRY, DIST_STAMP, digestOf, freshDist } from '../../bin/dist.js';
import { COMMANDS } from './commands/index.ts';
import { main } from './main.ts';

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = tempDirs('svc-startup-');

/** Modules reached from `file` by static imports (not `import()`), and the packages they name. */
function staticGraph(file: string, seen = new Set<string>(), packages = new Set<string>()): { modules: Set<string>; packages: Set<string> } {
  if (seen.has(file)) return { modules: seen, packages };
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)) {
    const spec = (m[1] ?? m[2])!;
    if (spec.startsWith('#harness/')) staticGraph(join(HARNESS, spec.slice('#harness/'.length)), seen, packages);
    else if (spec.startsWith('.')) staticGraph(resolve(dirname(file), spec), seen, packages);
    else packages.add(spec);
  }
  return { modules: seen, packages };
}

describe('start-up loads only what the command needs', () => {
  test('main.ts statically reaches the command list and help texts only: no command code, no dependency', () => {
    const { modules, packages } = staticGraph(join(HARNESS, 'cli', 'main.ts'));
    const names = [...modules].map((f) => relative(HARNESS, f)).sort();
    // Each command's module is an import() in commands/index.ts, reached only when it runs.
    for (const c of ['run', 'record', 'merge', 'validate', 'diff', 'emulate', 'checkSpec', 'schemas', 'openapi']) expect(names).not.toContain(`cli/commands/${c}.ts`);
    // Besides cli/ and the errors, only the concurrency policy and the client names, whose defaults `run --help` prints,
    // the timing policy (its defaults too), the amounts --budget-usd is read with (the run options' table checks it),
    // the --header parsers (the run options' table reads every value), and the machine's clock (every
    // command's calendar): modules with no import but one leaf.
    expect(names.filter((n) => !n.startsWith('cli/') && !n.startsWith('core/errors/'))).toEqual(['checks/client/names.ts', 'core/clock.ts', 'core/extraHeaders.ts', 'core/isRecord.ts', 'runner/maxInFlight.ts', 'spec/money.ts', 'transport/adaptiveLimit.ts', 'transport/timing.ts']);
    expect([...packages].filter((p) => !p.startsWith('node:'))).toEqual([]);
  });

  test('the graph walk can fail: run.ts reaches the runner and its dependencies', () => {
    const { modules, packages } = staticGraph(join(HARNESS, 'cli', 'commands', 'run.ts'));
    expect([...modules].some((f) => f.includes(`${join('harness', 'runner')}/`))).toBe(true);
    expect([...packages].some((p) => !p.startsWith('node:'))).toBe(true);
  });

  test('every command runs from its lazily loaded module: the module holds the command the registry names', async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect({ name: command.name, summary: command.summary, help: command.help }).toEqual({ name: entry.name, summary: entry.summary, help: entry.help });
    }
  });

  test('`<command> --help` does not load the command: its loader is never called', async () => {
    const load = vi.spyOn(COMMANDS.find((c) => c.name === 'run')!, 'load').mockRejectedValue(new Error('loaded'));
    try {
      const io = captureIO();
      expect(await main(['run', '--help'], io)).toBe(0);
      expect(io.out.join('\n')).toMatch(/^Usage: svc-conformance run/);
      expect(await main(['--help'], captureIO())).toBe(0);
      expect(load).not.toHaveBeenCalled();
      // Without --help it is loaded (here the loader fails: an internal error, one line, exit 2).
      const io2 = captureIO();
      expect(await main(['run'], io2)).toBe(2);
      expect(load).toHaveBeenCalledOnce();
      expect(io2.err.join('\n')).toMatch(/^svc-conformance: internal error: loaded\./);
    } finally {
      load.mockRestore();
    }
  });
});

describe('bin/ runs dist/ only when it was built from the sources present', () => {
  /** A package root with two sources, a dist entry and a stamp of those sources. */
  function builtPackage(): string {
    const root = tmp();
    mkdirSync(join(root, 'harness', 'cli'), { recursive: true });
    mkdirSync(join(root, dirname(DIST_ENTRY)), { recursive: true });
    writeFileSync(join(root, 'harness', 'cli', 'main.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'harness', 'cli', 'b.ts'), 'export const b = 2;\n');
    writeFileSync(join(root, DIST_ENTRY), 'export {};\n');
    const inputs = ['harness/cli/b.ts', 'harness/cli/main.ts'];
    writeFileSync(join(root, DIST_STAMP), JSON.stringify({ digest: digestOf(root, inputs), inputs }));
    return root;
  }

  test('built from these sources: dist runs', () => {
    const root = builtPackage();
    expect(freshDist(root)).toBe(pathToFileURL(join(root, DIST_ENTRY)).href);
  });

  test('a source edited since, even to the same length and with its old mtime: the sources run', () => {
    const root = builtPackage();
    writeFileSync(join(root, 'harness', 'cli', 'b.ts'), 'export const b = 3;\n');
    expect(freshDist(root)).toBeUndefined();
  });

  test('a source deleted since: the sources run', () => {
    const root = builtPackage();
    rmSync(join(root, 'harness', 'cli', 'b.ts'));
    expect(freshDist(root)).toBeUndefined();
  });

  test('no stamp (never built, or a build under way), or no entry: the sources run', () => {
    const noStamp = builtPackage();
    rmSync(join(noStamp, DIST_STAMP));
    expect(freshDist(noStamp)).toBeUndefined();
    const noEntry = builtPackage();
    rmSync(join(noEntry, DIST_ENTRY));
    expect(freshDist(noEntry)).toBeUndefined();
  });

  test('an installed package without sources: dist runs, there is nothing to compare', () => {
    const root = builtPackage();
    rmSync(join(root, 'harness'), { recursive: true });
    expect(freshDist(root)).toBeDefined();
  });
});
