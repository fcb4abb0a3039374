import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from './main.ts';

/**
 * The recordings committed under fixtures/: the embedded emulator recorded on each side of the
 * legacy aliases' retirement instant. Replayed offline (no emulator, no key), each must still give
 * a clean run, and its lifecycle checks must judge at the recording's clock.
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'svc-sets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function replay(set: string) {
  const out = join(dir, set);
  const code = await main(['run', '--fixtures', join(FIXTURES, set), '--fast', '--quiet', '--report-dir', out, '--json', `${out}.json`], captureIO());
  const all = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { records: { referenceTime: { source: string; value: string }; results: CheckResult[] }[] };
  return { code, records: all.records, results: all.records.flatMap((r) => r.results) };
}

describe.each([
  ['emulator-before-retirement', '2026-07-24T15:00:00.000Z'],
  ['emulator-after-retirement', '2026-07-24T17:00:00.000Z'],
])('fixtures/%s', (set, clock) => {
  test('replays offline to a clean run at the recording clock', async () => {
    const run = await replay(set);
    expect(run.results.filter((r) => r.verdict === 'error' || r.verdict === 'fail').map((r) => `${r.checkId} (${r.model}): ${r.reason ?? r.failures?.[0]?.message}`)).toEqual([]);
    expect(run.code).toBe(0);
    for (const r of run.records) expect(r.referenceTime).toEqual({ source: 'fixture', value: clock });
    const lifecycle = run.results.filter((r) => r.checkId.endsWith('.state-at-reference-time'));
    expect(lifecycle.map((r) => r.verdict)).toEqual(['pass', 'pass']);
  }, 60_000);
});
