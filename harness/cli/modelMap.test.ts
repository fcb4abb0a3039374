import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { startEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';
import { parseModelMap } from './modelMap.ts';

/**
 * --model-map takes a gateway's model ids whatever they hold (issue 49): claude-code-router's
 * `provider,model`, OpenRouter's slashes, Ollama's colons, a version after `@`.
 */
const IDS = ['emu,svc-v4-flash', 'openrouter/deepseek/deepseek-chat', 'ollama:llama3', 'svc-v4-flash@2026-06'];

describe('parseModelMap', () => {
  test.each(IDS)('one pair per flag, split at the first =: %s', (id) => {
    expect(parseModelMap('run', [`svc-v4-flash=${id}`])).toEqual({ 'svc-v4-flash': id });
  });

  test('pairs joined by commas still read as they always did; a comma starts a pair only before another `=`', () => {
    expect(parseModelMap('run', ['svc-v4-flash=a,svc-v4-pro=b'])).toEqual({ 'svc-v4-flash': 'a', 'svc-v4-pro': 'b' });
    expect(parseModelMap('run', ['svc-v4-flash=emu,svc-v4-flash,svc-v4-pro=emu,svc-v4-pro'])).toEqual({ 'svc-v4-flash': 'emu,svc-v4-flash', 'svc-v4-pro': 'emu,svc-v4-pro' });
    expect(parseModelMap('run', ['svc-v4-flash=a', 'svc-v4-pro=ollama:b'])).toEqual({ 'svc-v4-flash': 'a', 'svc-v4-pro': 'ollama:b' });
    // An `=` after the first belongs to the id.
    expect(parseModelMap('run', ['svc-v4-flash=x=y'])).toEqual({ 'svc-v4-flash': 'x=y' });
    expect(parseModelMap('run', undefined)).toEqual({});
  });

  test.each([
    [['svc-v4-flash'], /--model-map takes SPEC_ID=THEIR_ID \(got "svc-v4-flash"\)/],
    [['=x'], /\(got "=x"\)/],
    [['svc-v4-flash='], /\(got "svc-v4-flash="\)/],
    [['svc-v4-flash=a', 'svc-v4-flash=b'], /maps svc-v4-flash twice \("a" and "b"\)/],
  ])('%j is a usage error', (values, message) => {
    expect(() => parseModelMap('run', values)).toThrow(message);
  });
});

/** A gateway that names models its own way: each id it is sent is noted and turned back into the spec's. */
async function renamingGateway(target: string, ids: Record<string, string>) {
  const seen: string[] = [];
  const back = Object.fromEntries(Object.entries(ids).map(([spec, id]) => [id, spec]));
  const proxy = await startProxy(target, {
    rewriteRequest: (body) => {
      if (!isRecord(body) || typeof body.model !== 'string') return undefined;
      seen.push(body.model);
      return { ...body, model: back[body.model] ?? body.model };
    },
  });
  return { proxy, seen };
}

const KEY_ENV = 'SVC_MODEL_MAP_TEST_KEY';
const KEY = 'sk-model-map-test-0123456789';
process.env[KEY_ENV] = KEY;
const freshDir = tempDirs('svc-model-map-');
const ONLY = ['--only', 'endpoint.chat-completions-on-base-url.served', '--only', 'schema.chat-completion.matches-schema', '--only', 'answer.model.names-a-model-of-the-service'];

async function runThrough(baseUrl: string, args: string[]): Promise<{ code: number; results: CheckResult[]; text: string }> {
  const dir = freshDir();
  const io = captureIO();
  const code = await main(['run', ...args, '--model', 'svc-v4-flash', ...ONLY, '--quiet', '--report-dir', join(dir, 'r'), '--json', join(dir, 'run.json'), ...(baseUrl ? ['--base-url', baseUrl, '--api-key-env', KEY_ENV] : [])], io);
  const results = code === 2 ? [] : (JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { records: { results: CheckResult[] }[] }).records.flatMap((r) => r.results);
  return { code, results, text: io.text() };
}

describe('an id holding , / : or @ reaches the target as written', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  beforeAll(async () => {
    emulator = await startEmulator({ spec: loadSpec().spec, apiKeys: [KEY], faults: [] });
  });
  afterAll(() => emulator.close());

  test.each(IDS)('--model-map svc-v4-flash=%s: every request names it, and the run holds', async (id) => {
    const { proxy, seen } = await renamingGateway(emulator.url, { 'svc-v4-flash': id });
    try {
      const run = await runThrough(proxy.url, ['--model-map', `svc-v4-flash=${id}`]);
      expect(run.results.map((r) => [r.checkId, r.verdict])).toEqual(expect.arrayContaining([['schema.chat-completion.matches-schema', 'pass']]));
      expect(run.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.checkId}: ${r.reason}`)).toEqual([]);
      expect(run.code).toBe(0);
      // The served-gate may ask another model of the spec for a route's feature (svc-v4-pro): that one goes unmapped.
      expect(seen).toContain(id);
      expect(seen).not.toContain('svc-v4-flash');
    } finally {
      await proxy.close();
    }
  });

  test('the control: without the map the gateway is sent the spec id, which it does not know', async () => {
    const { proxy, seen } = await renamingGateway(emulator.url, { 'svc-v4-flash': IDS[0]! });
    try {
      await runThrough(proxy.url, []);
      expect(seen).toContain('svc-v4-flash');
      expect(seen).not.toContain(IDS[0]);
    } finally {
      await proxy.close();
    }
  });

  test("a config file's model_map takes the same ids, quoted or not, and the flag wins over it", async () => {
    const { proxy, seen } = await renamingGateway(emulator.url, { 'svc-v4-flash': IDS[0]!, 'svc-v4-pro': IDS[2]! });
    try {
      const file = join(freshDir(), 'svc-conformance.yaml');
      writeFileSync(file, `targets:\n  - base_url: ${proxy.url}\n    api_key_env: ${KEY_ENV}\n    model_map:\n      svc-v4-flash: emu,svc-v4-flash\n      svc-v4-pro: "ollama:llama3"\n`);
      const run = await runThrough('', ['--config', file]);
      expect(run.code).toBe(0);
      expect([...new Set(seen)].sort()).toEqual([IDS[0], IDS[2]]);
      seen.length = 0;
      // Per spec id: the flag's svc-v4-flash, the file's svc-v4-pro.
      await runThrough('', ['--config', file, '--model-map', `svc-v4-flash=${IDS[1]}`]);
      expect([...new Set(seen)].sort()).toEqual([IDS[2], IDS[1]].sort());
    } finally {
      await proxy.close();
    }
  });

  test("in a flow mapping an unquoted comma is YAML's own separator: the file is refused, naming the line (quote the id)", async () => {
    const file = join(freshDir(), 'svc-conformance.yaml');
    writeFileSync(file, `targets:\n  - base_url: http://127.0.0.1:1\n    model_map: { svc-v4-flash: emu,svc-v4-flash }\n`);
    const run = await runThrough('', ['--config', file]);
    expect(run.code).toBe(2);
    // `{ svc-v4-flash: emu, svc-v4-flash }`: the same key twice.
    expect(run.text).toMatch(/svc-conformance\.yaml:3:\d+: YAML syntax: Map keys must be unique/);
  });
});
