import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { MUST_AGREE } from '#harness/results/mergeRecords.ts';
import { RUN_RECORD_LAYOUT } from '#harness/results/serialize.ts';
import { COMMANDS } from './commands/index.ts';
import { CONFIG_KEYS, ENABLING, isFilledAfter, readOptions, RECORDED, RUN_OPTIONS, settingsOf, type CheckInputs, type RunOption } from './runOptions.ts';
import { planRun } from '#harness/runner/plan.ts';
import { defaultModels } from '#harness/checks/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { featuresOf } from '#harness/spec/features.ts';
import type { UpstreamRef } from '#harness/core/upstream.ts';
import { RUN_HELP } from './commands/runHelp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const flagsIn = (text: string) => new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!));

/** Flags the docs name that are not this tool's: node's (and V8's, tried in docs/performance.md), npm's, a test server's. */
const NOT_OURS = new Set(['import', 'save-dev', 'cpu-prof', 'run', 'always-sparkplug', 'maglev', 'min-semi-space-size']);

describe('the run options, declared once (cli/runOptions.ts)', () => {
  test('`run --help` names every option of the table, and nothing else', () => {
    // The flags that head an option's lines (a help line may name another command's flag).
    const named = new Set([...RUN_HELP.matchAll(/^ {2}--([a-z][a-z-]*)/gm)].map((m) => m[1]!));
    named.delete('help');
    expect([...named].sort()).toEqual(RUN_OPTIONS.map((o) => o.flag).filter((f) => f !== 'out').sort());
  });

  test('every flag docs/config.md names is in `run --help`; every flag README and docs name is a flag of some command', async () => {
    const runFlags = flagsIn(RUN_HELP);
    expect([...flagsIn(read('docs/config.md'))].filter((f) => !runFlags.has(f))).toEqual([]);
    const helps = (await Promise.all(COMMANDS.map(async (c) => c.help))).join('\n');
    const known = flagsIn(helps);
    for (const doc of docs) expect([...flagsIn(read(doc))].filter((f) => !known.has(f) && !NOT_OURS.has(f)), doc).toEqual([]);
  });

  test('every option has a config key, or says why not (docs/config.md lists both: optionsDoc.test.ts)', () => {
    for (const o of RUN_OPTIONS as readonly RunOption[]) if ('none' in o.config) expect(o.config.none.length, o.flag).toBeGreaterThan(10);
    // The keys the issue found refused: each is now a key.
    for (const key of ['runs', 'seed', 'repeat', 'budget_usd', 'allow_flaky', 'now']) expect(CONFIG_KEYS.has(key), key).toBe(true);
  });

  test("what a record carries of the options is the table's: the record's layout, and what merge compares", () => {
    const options = (RUN_RECORD_LAYOUT as { fields: Record<string, { keys: readonly string[] }> }).fields.options!.keys;
    expect([...RECORDED.map((r) => r.field)].sort()).toEqual([...options].sort());
    const agreed = MUST_AGREE.map(([name]) => name).filter((n) => n.startsWith('options.')).map((n) => n.slice('options.'.length));
    expect(agreed.sort()).toEqual(RECORDED.filter((r) => r.merge === 'agree').map((r) => r.field).sort());
  });

  test('the options that plan checks of their own (`enables`) are those the plan makes them for: none without the option, some with it', () => {
    const { spec } = loadSpec();
    const models = defaultModels(spec);
    // What each option sets in the run's config when given (runner/plan.ts reads these).
    const given: Record<string, { upstream?: UpstreamRef; load?: number }> = { 'upstream-port': { upstream: { id: 'u', kind: 'emulator', url: 'http://127.0.0.1:1', anyKey: true } }, load: { load: 16 } };
    expect(ENABLING.map((o) => o.flag).sort()).toEqual(Object.keys(given).sort());
    for (const o of ENABLING) {
      const without = planRun(spec, { models }).filter((p) => o.enables.of(p.check));
      const withIt = planRun(spec, { models, ...given[o.flag] }).filter((p) => o.enables.of(p.check));
      expect(without, o.flag).toEqual([]);
      expect(withIt.length, o.flag).toBeGreaterThan(0);
    }
  });

  /** What a value's check may need: the spec, loaded once. */
  const inputs: CheckInputs = (() => {
    const { spec } = loadSpec();
    return { spec: () => spec, features: () => featuresOf(spec) };
  })();

  test('one pass reads every option by its row: each not given at its default, each given as its parser reads it, into the settings field its row names', () => {
    const none = readOptions('run', {}, inputs);
    for (const o of RUN_OPTIONS as readonly RunOption[]) if (o.only !== 'record' && !isFilledAfter(o.default)) expect((none as Record<string, unknown>)[o.flag], o.flag).toEqual(o.default);
    const given = readOptions('run', { load: '16', runs: '3', strict: true, only: ['a,b', 'c'], shard: '2/3', 'timeout-ms': '500', now: '2026-07-24T15:58:00Z' }, inputs);
    expect(settingsOf(given)).toMatchObject({ load: 16, runs: 3, strict: true, only: ['a', 'b', 'c'], shard: { index: 2, count: 3 }, timeoutMs: 500, now: new Date('2026-07-24T15:58:00Z'), seed: 1, repeat: 1 });
    // 0 is no load phase: the settings carry none.
    expect(settingsOf(readOptions('run', { load: '0' }, inputs))).not.toHaveProperty('load');
    // A default is never shared between runs.
    (none.only as string[]).push('x');
    expect(readOptions('run', {}, inputs).only).toEqual([]);
  });

  test("each row's static default is a value its parser reads as itself, and its help says it", () => {
    for (const o of RUN_OPTIONS as readonly RunOption[]) {
      if (typeof o.default !== 'number' && typeof o.default !== 'string') continue;
      expect(o.value.read(String(o.default), { ...inputs, command: 'run', flag: o.flag }), o.flag).toBe(o.default);
      expect(o.help.join(' '), o.flag).toContain(`default ${o.default}`);
    }
  });

  test('several mistakes on one command line: the option `run --help` lists first is named, every time', () => {
    const wrong = { runs: '0', concurrency: '0', seed: 'x', shard: '4/3' };
    expect(() => readOptions('run', wrong, inputs)).toThrow(/^run: --concurrency must be/);
    expect(() => readOptions('run', { ...wrong, concurrency: '8' }, inputs)).toThrow(/^run: --runs must be/);
  });
});

