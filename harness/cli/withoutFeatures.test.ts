import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MESSAGES_BASE_PATH, MESSAGES_PATH } from '#harness/core/messagesPaths.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { featuresOf, leftOutByCheck } from '#harness/spec/features.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { isUnspecified } from '#harness/spec/model.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/*
 * `--without F` means every check of F (issue 49, item 6): a full run on one model, once without
 * `--without` and once per feature of the spec with it, each through a proxy that logs what reaches
 * the endpoint. With F left out, no request of F is sent (to F's route, or asking for F's fields,
 * wherever it is sent), and every check judging F's entries is skipped out of scope. Found: with
 * `--without prefix_completion`, rule.prefix.requires-beta-base still sent its prefix request to
 * {base_url} (to see it refused), judged it, and could fail the run.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-without-');
const NOW = '2026-06-01T00:00:00Z';
const KEY = 'sk-without-features-key';
const KEY_VAR = 'SVC_WITHOUT_KEY';

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

let emu: RunningEmulator;
let proxy: TestServer;
let log: Sent[] = [];

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: [KEY], now: () => new Date(NOW) });
  process.env[KEY_VAR] = KEY;
  proxy = await startProxy(emu.url, {
    answer: (req, path, body) => {
      log.push({ method: req.method ?? 'GET', path, body: body.length > 0 ? parsed(body) : undefined });
      return undefined;
    },
  });
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await proxy.close();
  await emu.close();
});

function parsed(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** What one run sent and what it concluded. */
async function run(without: string | undefined, specDir?: string): Promise<{ sent: Sent[]; results: CheckResult[] }> {
  log = [];
  const dir = tmp();
  await main(['run', ...(specDir ? ['--spec', specDir] : []), '--base-url', proxy.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash', '--report-dir', dir, '--json', join(dir, 'all.json'), '--quiet', ...(without ? ['--without', without] : [])], captureIO());
  const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { records: { results: CheckResult[] }[] };
  return { sent: log, results: all.records.flatMap((r) => r.results) };
}

/** The paths of a feature's routes (endpoints.yaml), below the proxy's root. */
function routesOf(feature: string): string[] {
  const basePath = (base: string): string => {
    if (base === 'messages_base_url') return MESSAGES_BASE_PATH;
    const b = spec.bases[base]!;
    return (b.relative_to ? basePath(b.relative_to) : '') + (isUnspecified(b.path) ? '' : b.path);
  };
  return Object.values(spec.endpoints).flatMap((ep) =>
    ep.bases.filter((b) => ep.features[b] === feature).map((b) => basePath(b) + (isUnspecified(ep.path) ? MESSAGES_PATH : ep.path)),
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asked = (v: unknown) => v !== undefined && v !== null && v !== false;

/** Whether a request is one of the feature's: to its route, or asking for it by a field of the body or of a message. */
function isOf(feature: string, r: Sent): boolean {
  if (routesOf(feature).includes(r.path)) return true;
  const f = spec.features[feature];
  if (f === undefined || !isObject(r.body)) return false;
  const body = r.body;
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  return (f.request_fields ?? []).some((k) => asked(body[k])) || (f.message_fields ?? []).some((k) => messages.some((m) => asked(m[k])));
}

const FEATURES = featuresOf(spec);
let baseline: { sent: Sent[]; results: CheckResult[] };
const runs = new Map<string, { sent: Sent[]; results: CheckResult[] }>();

beforeAll(async () => {
  baseline = await run(undefined);
  // One after another: the log is the proxy's, and each run must see only its own requests.
  for (const f of FEATURES) runs.set(f, await run(f));
}, 240_000);

describe('--without F: every check of F', () => {
  test('a full run sends requests of every feature or judges its entries, so each run below can fail', () => {
    expect(FEATURES.length).toBeGreaterThan(5);
    for (const f of FEATURES) {
      const sent = baseline.sent.filter((r) => isOf(f, r)).length;
      const judged = baseline.results.filter((r) => r.verdict !== 'skip' && leftOutByCheck(spec, [f], r.specRefs) === f).length;
      expect(sent + judged, f).toBeGreaterThan(0);
    }
  });

  test.each(FEATURES.map((f) => [f]))('--without %s: no request of it reaches the endpoint', (f) => {
    const of = runs.get(f)!.sent.filter((r) => isOf(f, r)).map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)?.slice(0, 160)}`);
    expect(of).toEqual([]);
  });

  test.each(FEATURES.map((f) => [f]))('--without %s: every check judging it is out of scope', (f) => {
    const results = runs.get(f)!.results;
    const judging = results.filter((r) => leftOutByCheck(spec, [f], r.specRefs) === f);
    for (const r of judging) expect([r.checkId, r.skipKind], r.checkId).toEqual([r.checkId, 'out-of-scope']);
    const outOfScope = results.filter((r) => r.skipKind === 'out-of-scope').map((r) => r.checkId);
    expect(outOfScope.length, f).toBeGreaterThan(0);
  });
});

describe('what the walk catches', () => {
  test('a spec whose prefix_completion marks no prefix message: the prefix request to {base_url} is sent and judged', async () => {
    const dir = tmp();
    cpSync(fileURLToPath(new URL('../../spec/', import.meta.url)), dir, { recursive: true });
    const file = join(dir, 'features.yaml');
    const text = readFileSync(file, 'utf8');
    // The entry as it stood before issue 49: the feature known only as the beta base's (bases.yaml).
    const unmarked = text.replace(/\n  prefix_completion:\n(    .*\n)+/, '\n');
    expect(unmarked).not.toBe(text);
    writeFileSync(file, unmarked);
    const { sent, results } = await run('prefix_completion', dir);
    expect(sent.filter((r) => isOf('prefix_completion', r)).length).toBeGreaterThan(0);
    expect(results.find((r) => r.checkId === 'rule.prefix.requires-beta-base')?.verdict).toBe('pass');
  }, 60_000);
});
