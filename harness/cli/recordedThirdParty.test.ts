import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { ALL_CLIENTS_FLAGS, isClientCheck, pinnedVerdicts, recordedThirdParties, verdictsPinnable } from '#harness/testing/thirdParty/recorded.ts';
import { main } from './main.ts';

/**
 * Real servers (llama.cpp's llama-server, the LiteLLM proxy), recorded by scripts/third-party/ and
 * replayed here: every pinned verdict (harness/testing/thirdParty/*.pins.ts) must come out again,
 * with no server, compiler or Python installed. A verdict that flips is a new false alarm or a miss.
 * The replay hands the recorded answers to every pinned client (--clients, all of CLIENTS), and every
 * client verdict is pinned, pass or not: what a real client makes of a real server's bytes is the
 * finding, so a client check that appears, goes or changes fails here until it is pinned by hand.
 * (clockShift.test.ts replays them again with the machine's clock moved ahead.)
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const recorded = await recordedThirdParties();
const dir = tempDirs('svc-recorded-third-party-')();
const runs = new Map<string, { code: number; results: CheckResult[] }>();

// Every replay at once: a replay mostly waits (a recorded 429 or 5xx is waited out as it would be live).
beforeAll(async () => {
  await Promise.all(
    recorded.map(async (r) => {
      const json = join(dir, `${r.name}.json`);
      const args = ['run', '--fixtures', join(ROOT, r.fixtures), '--fast', '--report-dir', join(dir, r.name), '--json', json, '--quiet', ...ALL_CLIENTS_FLAGS, ...r.args];
      const code = await main(args, captureIO());
      const all = JSON.parse(readFileSync(json, 'utf8')) as { records: { results: CheckResult[] }[] };
      runs.set(r.name, { code, results: all.records.flatMap((x) => x.results) });
    }),
  );
}, 240_000);

test('every recorded server has its pins', () => {
  expect(recorded.map((r) => r.name).length).toBeGreaterThan(0);
});

describe.each(recorded.map((r) => [r.name, r] as const))('%s (replayed)', (_name, r) => {
  test('the replay ends with the pinned exit code', () => {
    expect(runs.get(r.name)!.code).toBe(r.exitCode);
  });

  test('every must verdict, every client verdict, and every failing one, is the pinned one', () => {
    expect(verdictsPinnable(r, runs.get(r.name)!.results)).toEqual(pinnedVerdicts(r));
  });

  test('every client check the replay ran is pinned, pass or not', () => {
    const unpinned = runs.get(r.name)!.results.filter((x) => isClientCheck(x.checkId) && r.verdicts[x.checkId] === undefined).map((x) => `${x.checkId} (${x.verdict})`);
    expect(unpinned).toEqual([]);
  });

  test('every client pin says why, as established by hand', () => {
    const bare = Object.entries(r.verdicts).filter(([id, p]) => isClientCheck(id) && p.why.trim() === '').map(([id]) => id);
    expect(bare).toEqual([]);
  });

  test('a pin that says inconclusive is an inconclusive skip', () => {
    const results = runs.get(r.name)!.results;
    for (const [id, p] of Object.entries(r.verdicts)) {
      if (!p.why.startsWith('inconclusive')) continue;
      expect(results.find((x) => x.checkId === id)?.reason ?? '', id).toMatch(/^inconclusive: /);
    }
  });
});
