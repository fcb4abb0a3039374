import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { describe, expect, test } from 'vitest';
import { deriveObjectSchema } from '#harness/derive/schemas/index.ts';
import { loadFromFiles, DEFAULT_SPEC_DIR } from '#harness/spec/load.ts';
import { staleDist } from '#harness/testing/freshDist.ts';
import { listBodies, parseJsonBody, readFixture } from '#harness/testing/realWorld.ts';
import { createAjv } from './createAjv.ts';
import { precompiledFile } from './registry.ts';
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
