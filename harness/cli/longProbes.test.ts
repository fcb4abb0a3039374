import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { modelMax } from '#harness/checks/support/build.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { startServer, type TestServer } from '#harness/testing/httpTestServer.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { runCli } from '#harness/testing/cliRun.ts';

/*
 * Probes that do not stall the endpoint they judge (issue 49, item 4). `transformers serve`
 * generates one request at a time, and `request.max-tokens.accepted-within-bounds` asked it for
 * max_tokens 384000 unstreamed: a generation that held the route while 63 checks ended in error. A
 * server that accepts long generations (a real model writing on and on) stands here: a request
 * asking for more than LONG tokens is answered with a stream that never ends (streamed) or, within
 * the model's maximum, is held (unstreamed); everything else goes to the emulator. The harness asks what could run long as a
 * stream, judges its status and first event, and closes it.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-long-');
const NOW = '2026-06-01T00:00:00Z';
const KEY = 'sk-long-probes-key';
const KEY_VAR = 'SVC_LONG_PROBES_KEY';
const LONG = 10_000;
const MAX = modelMax(spec, 'svc-v4-flash')!;

let emu: RunningEmulator;
let server: TestServer;
const seen = { streamsOpened: 0, streamsClosedByClient: 0, heldUnstreamed: 0 };

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: [KEY], now: () => new Date(NOW) });
  process.env[KEY_VAR] = KEY;
  server = await startServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    let body: { max_tokens?: unknown; stream?: unknown; model?: unknown } = {};
    try {
      body = JSON.parse(raw.toString('utf8')) as typeof body;
    } catch {
      // not JSON: forwarded as it is
    }
    // Long and valid: beyond the model's maximum the emulator refuses it, as the service does.
    if (req.method === 'POST' && req.url === '/chat/completions' && typeof body.max_tokens === 'number' && body.max_tokens > LONG && (body.stream === true || body.max_tokens <= MAX.accept)) {
      if (body.stream === true) {
        seen.streamsOpened += 1;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (text: string) => `data: ${JSON.stringify({ id: 'chatcmpl-long', object: 'chat.completion.chunk', created: 1_780_000_000, model: body.model, choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }] })}\n\n`;
        res.write(chunk(''));
        const timer = setInterval(() => res.write(chunk('more ')), 20);
        res.on('close', () => {
          clearInterval(timer);
          if (!res.writableFinished) seen.streamsClosedByClient += 1;
        });
        return;
      }
      // Unstreamed: the answer would come when the generation ends, long after any test.
      seen.heldUnstreamed += 1;
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([n]) => !['host', 'connection', 'content-length'].includes(n)).map(([n, v]) => [n, String(v)]));
    const answer = await fetch(`${emu.url}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(raw.length > 0 ? { body: raw } : {}) });
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([n]) => n !== 'content-length' && n !== 'transfer-encoding')));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await server.close();
  await emu.close();
});

async function run(extra: string[]): Promise<CheckResult[]> {
  return (await runCli(['--base-url', server.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash', '--clients', 'none', '--quiet', ...extra], tmp())).results;
}

describe('a probe whose answer could be long', () => {
  test('max_tokens at its bound is asked as a stream, judged on its first event and closed: accepted, and nothing held', async () => {
    const results = await run(['--only', 'request.max-tokens']);
    const verdict = (id: string) => results.find((r) => r.checkId === id)?.verdict;
    expect(verdict('request.max-tokens.accepted-within-bounds')).toBe('pass');
    // The refusal checks beyond the bound: the emulator refuses 384001 unstreamed; streamed, this
    // server accepts it, and the twin reads its first event only (a refusal not made: fail, at once).
    expect(verdict('request.max-tokens.refused-beyond-bounds')).toBe('pass');
    expect(verdict('request.max-tokens.refused-beyond-bounds.streamed')).toBe('fail');
    expect(results.filter((r) => r.verdict === 'error').map((r) => r.checkId)).toEqual([]);
    expect(seen.heldUnstreamed).toBe(0);
    expect(seen.streamsOpened).toBeGreaterThan(0);
    // Every endless stream was closed by the harness, none left running.
    await new Promise((r) => setTimeout(r, 100));
    expect(seen.streamsClosedByClient).toBe(seen.streamsOpened);
  }, 60_000);

  test('with streams left out, it is asked unstreamed, as the run asks nothing streamed', async () => {
    const before = seen.heldUnstreamed;
    const results = await run(['--only', 'request.max-tokens.accepted', '--without', 'streaming', '--timeout-ms', '1500', '--deadline-ms', '2000']);
    expect(seen.heldUnstreamed).toBeGreaterThan(before);
    expect(results.find((r) => r.checkId === 'request.max-tokens.accepted-within-bounds')?.verdict).not.toBe('pass');
  }, 60_000);
});
