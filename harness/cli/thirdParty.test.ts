import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { startAimock, startMockOpenAiApi, type ThirdPartyServer } from '#harness/testing/thirdParty/servers.ts';
import { THIRD_PARTY_VERDICTS, type Pinned } from '#harness/testing/thirdParty/verdicts.ts';
import { main } from './main.ts';

/**
 * The harness against OpenAI-compatible servers nobody here wrote, started on 127.0.0.1 from npm:
 * every must-level verdict is pinned in harness/testing/thirdParty/verdicts.ts, each failure with
 * the way that server truly departs from the description (checked by hand, FINDINGS.md). A change
 * that flips a pinned verdict fails here, so neither a false alarm nor a miss creeps back.
 */
const KEY = 'sk-test-123';
const KEY_VAR = 'SVC_THIRD_PARTY_KEY';
const NOW = '2026-06-01T00:00:00Z';

type ServerName = keyof typeof THIRD_PARTY_VERDICTS;

interface Target {
  name: ServerName;
  start(): Promise<ThirdPartyServer>;
  args(server: ThirdPartyServer): string[];
}

const TARGETS: Target[] = [
  { name: 'aimock', start: () => startAimock({ apiKeys: [KEY] }), args: (s) => ['--messages-base-url', s.origin] },
  { name: 'mock-openai-api', start: () => startMockOpenAiApi(), args: () => ['--model-map', 'svc-v4-flash=mock-gpt-thinking'] },
];

const dir = tempDirs('svc-third-party-')();
const servers: ThirdPartyServer[] = [];
const runs = new Map<string, { code: number; results: CheckResult[] }>();

beforeAll(async () => {
  process.env[KEY_VAR] = KEY;
  // mock-openai-api logs each request it cannot parse ("Global error: ..."): its noise, not ours.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await Promise.all(
    TARGETS.map(async (t) => {
      const server = await t.start();
      servers.push(server);
      const json = join(dir, `${t.name}.json`);
      const args = ['run', '--base-url', server.baseUrl, '--api-key-env', KEY_VAR, '--model', 'svc-v4-flash', '--now', NOW, '--report-dir', join(dir, t.name), '--json', json, '--quiet', ...t.args(server)];
      const code = await main(args, captureIO());
      const all = JSON.parse(readFileSync(json, 'utf8')) as { records: { results: CheckResult[] }[] };
      runs.set(t.name, { code, results: all.records.flatMap((r) => r.results) });
    }),
  );
}, 120_000);

afterAll(async () => {
  delete process.env[KEY_VAR];
  vi.restoreAllMocks();
  await Promise.all(servers.map((s) => s.close()));
});

/** Every must-level result as a pinned entry would state it: its verdict. */
function mustVerdicts(results: CheckResult[]): Record<string, CheckResult['verdict']> {
  return Object.fromEntries(results.filter((r) => r.severity === 'must').map((r) => [r.checkId, r.verdict]).sort(([a], [b]) => String(a).localeCompare(String(b))));
}

describe.each(TARGETS.map((t) => t.name))('%s', (name: ServerName) => {
  test('the run ends with reports; a must failure exits 1', () => {
    const run = runs.get(name)!;
    expect(run.code).toBe(run.results.some((r) => r.severity === 'must' && (r.verdict === 'fail' || r.verdict === 'error')) ? 1 : 0);
  });

  test('every must-level verdict is the pinned one', () => {
    const pinned: Record<string, Pinned> = THIRD_PARTY_VERDICTS[name];
    const expected = Object.fromEntries(Object.entries(pinned).map(([id, p]) => [id, p.verdict]).sort(([a], [b]) => String(a).localeCompare(String(b))));
    expect(mustVerdicts(runs.get(name)!.results)).toEqual(expected);
  });

  test('a check that needs the endpoint to follow a prompt is inconclusive, never a pass, where it does not', () => {
    const results = runs.get(name)!.results;
    const pinned: Record<string, Pinned> = THIRD_PARTY_VERDICTS[name];
    for (const [id, p] of Object.entries(pinned)) {
      if (!p.why.startsWith('inconclusive')) continue;
      const r = results.find((x) => x.checkId === id);
      expect(r?.reason ?? '', id).toMatch(/^inconclusive: /);
    }
  });
});
