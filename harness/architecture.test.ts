import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * The import rule of STYLE.md, enforced: data flows spec -> derive -> checks -> results -> render,
 * and the emulator implements the spec on its own, so a bug in derive cannot hide in both the
 * generator and the oracle. Test files, harness/testing and harness/bench may reach across layers;
 * no production module imports them, nor vitest (the runner alone drives it).
 */
const ROOT = dirname(fileURLToPath(import.meta.url));

/** Layer -> the layers its production code may import (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  spec: ['core'],
  derive: ['core', 'spec'],
  capture: ['core', 'spec', 'derive'],
  checks: ['core', 'spec', 'derive'],
  // The load phase's driver: it sends the phase's requests through a check's context and judges each answer with the checks' own judge; the runner drives it.
  load: ['core', 'spec', 'checks'],
  transport: ['core', 'spec'],
  emulator: ['core', 'spec'],
  replay: ['core', 'spec'],
  // The harness as a gateway's upstream (issue 33): it serves and records exchanges, and knows nothing of checks or the emulator.
  gateway: ['core'],
  targets: ['core', 'spec', 'transport', 'emulator', 'replay', 'gateway'],
  results: ['core'],
  render: ['core', 'results'],
  runner: ['core', 'spec', 'derive', 'checks', 'load', 'transport', 'targets', 'replay', 'results', 'gateway'],
  cli: ['core', 'spec', 'derive', 'capture', 'checks', 'load', 'transport', 'emulator', 'replay', 'targets', 'results', 'render', 'runner', 'gateway'],
  testing: ['core', 'spec', 'derive', 'capture', 'checks', 'load', 'transport', 'emulator', 'replay', 'gateway', 'targets', 'results', 'render', 'runner', 'cli', 'outside'],
  // The load generator and benchmarks measure everything; nothing imports them.
  bench: ['core', 'spec', 'derive', 'capture', 'checks', 'load', 'transport', 'emulator', 'replay', 'gateway', 'targets', 'results', 'render', 'runner', 'cli', 'testing', 'outside'],
};

/** Rooms whose modules serve tests and benchmarks only: production code never imports them. */
const TEST_ROOMS = ['testing', 'bench'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.bench.ts') ? [p] : [];
  });
}

function layerOf(file: string): string {
  return relative(ROOT, file).split('/')[0]!;
}

/** What a module imports of harness/: each import's specifier and the module it names, relative to harness/ (`../` outside it). */
function importsOf(file: string, text: string): { spec: string; target: string }[] {
  const out: { spec: string; target: string }[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
    const spec = m[1]!;
    if (spec.startsWith('#harness/')) out.push({ spec, target: spec.slice('#harness/'.length) });
    else if (spec.startsWith('.')) out.push({ spec, target: relative(ROOT, resolve(dirname(file), spec)) });
  }
  return out;
}

function importedLayers(file: string, text: string): { layer: string; spec: string }[] {
  // Outside harness/ (bin/'s freshness check): only the test rooms reach there.
  return importsOf(file, text).map(({ spec, target }) => ({ layer: target.split('/')[0] === '..' ? 'outside' : target.split('/')[0]!, spec }));
}

function violationsOf(file: string, text: string): string[] {
  const own = layerOf(file);
  return importedLayers(file, text)
    .filter(({ layer }) => layer !== own && !(ALLOWED[own] ?? []).includes(layer))
    .map(({ layer, spec }) => `${relative(ROOT, file)} imports ${spec} (${own} may not import ${layer})`);
}

describe('layering', () => {
  const files = sourceFiles(ROOT).filter((f) => relative(ROOT, f).includes('/'));

  test('every layer is known to the rule', () => {
    for (const f of files) expect(Object.keys(ALLOWED), relative(ROOT, f)).toContain(layerOf(f));
  });

  test('production code imports only from the layers to its left', () => {
    expect(files.flatMap((f) => violationsOf(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  test('the rule can fail: an emulator file importing derive, by alias or by path, is caught', () => {
    const fake = join(ROOT, 'emulator', 'routes', 'fake.ts');
    expect(violationsOf(fake, "import { validatorFor } from '#harness/derive/validators/index.ts';")).toHaveLength(1);
    expect(violationsOf(fake, "export { x } from '../../derive/schemas/index.ts';")).toHaveLength(1);
    expect(violationsOf(fake, "import { loadSpec } from '#harness/spec/load.ts';")).toEqual([]);
  });
});

/** What a module imports that names `room` (a layer, or a folder such as `checks/load`), by alias or by path. */
function importsFrom(file: string, text: string, room: string): string[] {
  return importsOf(file, text)
    .filter(({ target }) => target === room || target.startsWith(`${room}/`))
    .map(({ spec }) => `${relative(ROOT, file)} imports ${spec}`);
}

describe('the load phase, a phase of the plan', () => {
  const production = sourceFiles(ROOT).filter((f) => relative(ROOT, f).includes('/'));
  const of = (room: string) => production.filter((f) => relative(ROOT, f).startsWith(`${room}/`));

  test('no check module imports the runner: a check is called, and calls nothing back', () => {
    expect(of('checks').flatMap((f) => importsFrom(f, readFileSync(f, 'utf8'), 'runner'))).toEqual([]);
  });

  test("the runner imports no check module's driver: nothing of checks/load/ (the phase's driver is load/drive.ts; the runner reads the checks through checks/index.ts)", () => {
    expect(of('runner').flatMap((f) => importsFrom(f, readFileSync(f, 'utf8'), 'checks/load'))).toEqual([]);
  });

  test('the load checks send nothing: they judge the run handed to them', () => {
    expect(of('checks/load').filter((f) => /\.send\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('the rules can fail: a check importing the runner, and the runner importing a load check module, by alias or by path, are caught', () => {
    const check = join(ROOT, 'checks', 'load', 'fake.ts');
    expect(importsFrom(check, "import { runMetered } from '#harness/runner/runMetered.ts';", 'runner')).toHaveLength(1);
    expect(importsFrom(check, "import type { RunShared } from '../../runner/checkContext.ts';", 'runner')).toHaveLength(1);
    const runner = join(ROOT, 'runner', 'fake.ts');
    expect(importsFrom(runner, "import { driveLoad } from '#harness/checks/load/drive.ts';", 'checks/load')).toHaveLength(1);
    expect(importsFrom(runner, "import type { DrivenLoad } from '../checks/load/run.ts';", 'checks/load')).toHaveLength(1);
    expect(importsFrom(runner, "import { buildRegistry, type DrivenLoad } from '#harness/checks/index.ts';", 'checks/load')).toEqual([]);
    expect(importsFrom(runner, "import { driveLoad } from '#harness/load/drive.ts';", 'checks/load')).toEqual([]);
  });
});

/** Production modules (not in a test room): what they import from the test rooms, and vitest outside the runner. */
function testImportsOf(file: string, text: string): string[] {
  const own = layerOf(file);
  const rooms = importedLayers(file, text)
    .filter(({ layer }) => TEST_ROOMS.includes(layer))
    .map(({ spec }) => `${relative(ROOT, file)} imports ${spec} (a test helper)`);
  const vitest = own !== 'runner' && /^\s*import\b[^'"]*?from\s+['"]vitest(?:\/[^'"]*)?['"]/m.test(text) ? [`${relative(ROOT, file)} imports vitest (only the runner drives it)`] : [];
  return [...rooms, ...vitest];
}

describe('rooms', () => {
  const production = sourceFiles(ROOT).filter((f) => relative(ROOT, f).includes('/') && !TEST_ROOMS.includes(layerOf(f)));

  test('no production module imports a test helper, a benchmark, or vitest outside the runner', () => {
    expect(production.flatMap((f) => testImportsOf(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  test('the rule can fail: a render module importing a test helper or vitest is caught; the runner may import vitest', () => {
    const render = join(ROOT, 'render', 'fake.ts');
    expect(testImportsOf(render, "import { sampleRecord } from '#harness/testing/sampleRecord.ts';")).toHaveLength(1);
    expect(testImportsOf(render, "import { expect } from 'vitest';")).toHaveLength(1);
    expect(testImportsOf(join(ROOT, 'runner', 'fake.ts'), "import { describe } from 'vitest';")).toEqual([]);
  });
});

describe('one of each', () => {
  /** A JSON-object guard written out again: `typeof x === 'object' && x !== null && !Array.isArray(x)`. */
  const GUARD = /typeof (\w+) === 'object' && \1 !== null && !Array\.isArray\(\1\)/;

  test('one record guard: production code uses core/isRecord.ts instead of writing its own', () => {
    const copies = sourceFiles(ROOT).filter((f) => !f.endsWith(join('core', 'isRecord.ts')) && !f.includes(`${join(ROOT, 'testing')}/`) && GUARD.test(readFileSync(f, 'utf8')));
    expect(copies.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('the guard search can fail', () => {
    expect(GUARD.test("const ok = typeof v === 'object' && v !== null && !Array.isArray(v);")).toBe(true);
  });

  /** Production modules that import a package by name: one module per concept reads with it. */
  const importersOf = (pkg: string) =>
    sourceFiles(ROOT)
      .filter((f) => !TEST_ROOMS.includes(layerOf(f)) && new RegExp(`from\\s+['"]${pkg}['"]`).test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));

  test('one SSE reader: only core/sseFold.ts imports eventsource-parser', () => {
    expect(importersOf('eventsource-parser')).toEqual(['core/sseFold.ts']);
  });

  /** Production modules whose text matches `pattern`, outside the test rooms and `except`. */
  const writersOf = (pattern: RegExp, except: (file: string) => boolean = () => false) =>
    sourceFiles(ROOT)
      .map((f) => relative(ROOT, f))
      .filter((f) => !TEST_ROOMS.includes(f.split('/')[0]!) && !except(f) && pattern.test(readFileSync(join(ROOT, f), 'utf8')));

  test('one ajv setup: only core/createAjv.ts constructs a validator instance (others import types)', () => {
    expect(writersOf(/^import (?!type\b)[^;]*from ['"]ajv(?:\/dist\/2020(?:\.js)?)?['"]|new Ajv/m)).toEqual(['core/createAjv.ts']);
  });

  test("one cost path: the harness prices tokens through spec/pricing.ts costOfUse (the emulator charges on its own, as the service would)", () => {
    expect(writersOf(/\bcostOf\(/, (f) => f === 'spec/pricing.ts' || f.startsWith('emulator/'))).toEqual([]);
  });

  test('a thin run command: cli/commands/run.ts is flags and wiring, under 150 lines', () => {
    expect(readFileSync(join(ROOT, 'cli', 'commands', 'run.ts'), 'utf8').split('\n').length).toBeLessThan(150);
  });
});

describe('no import cycles', () => {
  /** Every module each production module imports (types too: a cycle of types is still two modules that need each other). */
  function graph(): Map<string, string[]> {
    const files = sourceFiles(ROOT);
    const edges = new Map<string, string[]>();
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const out: string[] = [];
      for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
        const spec = m[1]!;
        const target = spec.startsWith('#harness/') ? join(ROOT, spec.slice('#harness/'.length)) : spec.startsWith('.') ? resolve(dirname(f), spec) : undefined;
        if (target !== undefined && files.includes(target)) out.push(target);
      }
      edges.set(f, out);
    }
    return edges;
  }

  /** The strongly connected components of more than one module (Tarjan). */
  function cycles(edges: Map<string, string[]>): string[][] {
    let index = 0;
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const on = new Set<string>();
    const found: string[][] = [];
    const visit = (v: string): void => {
      idx.set(v, index);
      low.set(v, index++);
      stack.push(v);
      on.add(v);
      for (const w of edges.get(v) ?? []) {
        if (!idx.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
      if (low.get(v) === idx.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          scc.push(relative(ROOT, w));
        } while (w !== v);
        if (scc.length > 1) found.push(scc.sort());
      }
    };
    for (const v of edges.keys()) if (!idx.has(v)) visit(v);
    return found;
  }

  test('no two production modules import each other, directly or around a loop', () => {
    expect(cycles(graph())).toEqual([]);
  });

  test('the search can fail: a loop is found', () => {
    expect(cycles(new Map([['/a', ['/b']], ['/b', ['/c']], ['/c', ['/a']], ['/d', ['/a']]]))).toEqual([['/a', '/b', '/c'].map((p) => relative(ROOT, p)).sort()]);
  });
});
