import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { afterAll, describe, expect, test } from 'vitest';
import { deriveObjectSchema } from '#harness/derive/schemas/index.ts';
import { loadFromFiles, DEFAULT_SPEC_DIR } from '#harness/spec/load.ts';
import { markBundled } from '#harness/spec/specCache.ts';
import { staleDist } from '#harness/testing/freshDist.ts';
import { listBodies, parseJsonBody, readFixture } from '#harness/testing/realWorld.ts';
import { createAjv } from './createAjv.ts';
import { loadPrecompiled, loadPrecompiledOwn, ownSchemaFile, precompiledFile } from './precompiled.ts';
import { writeOwnSchemas, writePrecompiled } from './writePrecompiled.ts';
import { ownValidator, validatorFor } from './registry.ts';
import { SAMPLE_TOOLS } from '#harness/checks/support/requests.ts';
import { DRAWN_TOOLS } from '#harness/derive/arbitraries/index.ts';
import { toViolations } from './violations.ts';

const DIST = new URL('../../../dist/cli/', import.meta.url);
const stale = staleDist();
const { spec } = loadFromFiles(DEFAULT_SPEC_DIR);
const requireDist = createRequire(fileURLToPath(DIST));

/** Bodies to judge: every real JSON body, and a few that break most objects. */
const bodies: unknown[] = [
  ...listBodies()
    .filter((n) => n.endsWith('.json'))
    .map((n) => {
      try {
        return parseJsonBody(readFixture(n));
      } catch {
        return undefined;
      }
    })
    .filter((b) => b !== undefined),
  {},
  { id: 1, object: 7, choices: 'no' },
  { error: { message: 3 } },
];

describe.skipIf(stale !== undefined)(`the validators the build precompiled${stale ? ` (skipped: ${stale})` : ''}`, () => {
  test.each(['default', 'strict'] as const)('judge every object as a validator compiled now does (%s profile)', (profile) => {
    const ajv = createAjv();
    for (const objectName of Object.keys(spec.objects)) {
      const loaded = requireDist(`./${precompiledFile(objectName, { profile })}`) as ValidateFunction | { default: ValidateFunction };
      const pre = typeof loaded === 'function' ? loaded : loaded.default;
      const now = ajv.compile(deriveObjectSchema(spec, objectName, { profile }));
      for (const body of bodies) {
        const a = pre(body) ? [] : toViolations(pre.errors);
        const b = now(body) ? [] : toViolations(now.errors);
        expect(a, `${objectName} (${profile})`).toEqual(b);
      }
    }
  });
});

describe('a precompiled validator serves only the spec it was compiled from', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-precompiled-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = pathToFileURL(`${dir}/`);
  writePrecompiled(spec, 'digest-a', at, ['usage']);
  const judged = (validate: ValidateFunction | undefined) => bodies.map((b) => (validate!(b) ? [] : toViolations(validate!.errors)));
  const compiled = judged(createAjv().compile(deriveObjectSchema(spec, 'usage', { profile: 'default' })));

  test('the spec cached under the digest it was written with: the module, which judges as a validator compiled now', () => {
    const validate = loadPrecompiled(at, 'digest-a', 'usage', { profile: 'default' });
    expect(validate).toBeTypeOf('function');
    expect(judged(validate)).toEqual(compiled);
  });

  test('a stale module (another spec\'s digest), a spec loaded from its files (no digest), a missing module: none, so the registry compiles', () => {
    expect(loadPrecompiled(at, 'digest-b', 'usage', { profile: 'default' })).toBeUndefined();
    expect(loadPrecompiled(at, undefined, 'usage', { profile: 'default' })).toBeUndefined();
    expect(loadPrecompiled(at, 'digest-a', 'choice', { profile: 'default' })).toBeUndefined();
  });

  test('the registry compiles for a cached spec with no module beside it, and judges the same', () => {
    // Beside the sources there is no precompiled module: the fallback a missing one takes.
    const judge = validatorFor(markBundled(structuredClone(spec), 'digest-a'), 'usage');
    expect(bodies.map((b) => judge(b))).toEqual(compiled);
  });
});

describe('schemas of the harness\'s own (the parameters of the tools it offers), precompiled by content', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-precompiled-own-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = pathToFileURL(`${dir}/`);
  const weather = SAMPLE_TOOLS[0]!.function.parameters;
  const args: unknown[] = [{ city: 'Paris', unit: 'c' }, { city: 'Paris' }, { city: 3, unit: 'k' }, {}, 'Paris', null];
  const judged = (validate: ValidateFunction) => args.map((a) => (validate(a) ? [] : toViolations(validate.errors)));
  const compiled = judged(createAjv({ ownSchemas: true }).compile(weather));

  test('the module written for a schema is found by its content, and judges as one compiled now', () => {
    expect(writeOwnSchemas([weather], at)).toBe(1);
    const validate = loadPrecompiledOwn(at, structuredClone(weather));
    expect(validate).toBeTypeOf('function');
    expect(judged(validate!)).toEqual(compiled);
    expect(compiled.filter((v) => v.length > 0)).toHaveLength(5);
  });

  test('a schema changed by a byte is another file: none is found, and ownValidator compiles it', () => {
    const changed = { ...weather, required: ['city'] };
    expect(ownSchemaFile(changed)).not.toBe(ownSchemaFile(weather));
    expect(loadPrecompiledOwn(at, changed)).toBeUndefined();
    expect(ownValidator(changed)({ city: 'Paris' })).toBe(true);
    expect(ownValidator(changed)({})).toBe(false);
  });
});

describe.skipIf(stale !== undefined)(`the tool parameters the build precompiled${stale ? ` (skipped: ${stale})` : ''}`, () => {
  test('every tool a request offers (the checks\' and the drawn ones) has its module beside the bundle', () => {
    for (const tool of [...SAMPLE_TOOLS, ...DRAWN_TOOLS]) expect(loadPrecompiledOwn(DIST, (tool.function as { parameters: object }).parameters), JSON.stringify(tool)).toBeTypeOf('function');
  });
});
