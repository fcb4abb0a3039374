import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { serveFetch, type FetchServer } from '#harness/core/http/fetchBridge.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { runCli } from '#harness/testing/cliRun.ts';

/**
 * Issue 47, item 6, as apfel#100 sends it: every chat stream's usage leaves the final chunk for a
 * chunk of its own with `choices: []` after it, whether or not `stream_options.include_usage` asked.
 * The description says nothing of usage in a stream, so the run stays green at must: the stream
 * grammar is read of the message's chunks (streaming.yaml usage_carrier), and only the advisory
 * stream.usage.in-final-chunk reports where usage came.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-usage-carrier-');
const NOW = '2026-06-01T00:00:00Z';
const KEY_VAR = 'SVC_USAGE_CARRIER_KEY';

let emu: RunningEmulator;
let proxy: FetchServer;
let moved = 0;
let unasked = 0;

/** The stream's final chunk loses its usage to a usage-only `choices: []` chunk sent right after it. */
function usageApart(text: string): string {
  return text.replace(/^data: (\{.*\})$/gm, (line, data: string) => {
    const chunk = JSON.parse(data) as Record<string, unknown>;
    const choices = Array.isArray(chunk.choices) ? (chunk.choices as { finish_reason?: unknown }[]) : [];
    if (chunk.usage === undefined || chunk.usage === null || !choices.some((c) => c.finish_reason != null)) return line;
    moved += 1;
    const { usage, ...rest } = chunk;
    return `data: ${JSON.stringify(rest)}\n\ndata: ${JSON.stringify({ id: chunk.id, object: chunk.object, created: chunk.created, model: chunk.model, choices: [], usage })}`;
  });
}

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: ['sk-usage-carrier-key'], now: () => new Date(NOW) });
  process.env[KEY_VAR] = 'sk-usage-carrier-key';
  proxy = await serveFetch(
    async (request) => {
      const url = new URL(request.url);
      const headers = new Headers([...request.headers].filter(([n]) => !['host', 'connection', 'content-length'].includes(n)));
      const body = request.method === 'GET' ? undefined : await request.text();
      if (body !== undefined && url.pathname.endsWith('/chat/completions') && body.includes('"stream":true') && !body.includes('"include_usage":true')) unasked += 1;
      const answer = await fetch(`${emu.url}${url.pathname}${url.search}`, { method: request.method, headers, ...(body !== undefined ? { body } : {}) });
      const out = new Headers([...answer.headers].filter(([n]) => !['content-length', 'transfer-encoding', 'content-encoding'].includes(n)));
      if (!(answer.headers.get('content-type') ?? '').includes('event-stream')) return new Response(answer.body, { status: answer.status, headers: out });
      return new Response(usageApart(await answer.text()), { status: answer.status, headers: out });
    },
    { failure: (e) => new Response(JSON.stringify({ error: { message: String(e), type: 'proxy_error' } }), { status: 502 }) },
  );
});
afterAll(async () => {
  delete process.env[KEY_VAR];
  await proxy.close();
  await emu.close();
});

describe('usage in a `choices: []` chunk after the final chunk, unasked', () => {
  let code: number;
  let results: CheckResult[];
  beforeAll(async () => {
    ({ code, results } = await runCli(['--quiet', '--base-url', proxy.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash'], tmp()));
  }, 120_000);

  test('the proxy moved usage out of final chunks, streams that did not ask for it among them', () => {
    expect(moved).toBeGreaterThan(5);
    expect(unasked).toBeGreaterThan(0);
  });

  test('the run stays green at must: exit 0, no must-check fails', () => {
    expect(results.filter((r) => r.verdict === 'fail' && r.severity === 'must').map((r) => `${r.checkId}: ${r.failures?.[0]?.message}`)).toEqual([]);
    expect(code).toBe(0);
  });

  test('the stream grammar reads past the carrier: the final chunk and finish_reason checks pass', () => {
    for (const id of ['stream.events.final-chunk-has-finish-reason', 'stream.chunks.finish-reason-only-final', 'stream.chunks.carry-a-choice', 'stream.events.done-last']) {
      expect(results.find((r) => r.checkId === id)?.verdict, id).toBe('pass');
    }
  });

  test('only stream.usage.in-final-chunk reports the carrier, advisory', () => {
    const failing = results.filter((r) => r.verdict === 'fail');
    expect(failing.map((r) => [r.checkId, r.severity])).toEqual([['stream.usage.in-final-chunk', 'advisory']]);
    expect(failing[0]!.failures?.[0]?.message).toMatch(/^usage arrives in a chunk of its own with no choices \(chunk \d+, after the final chunk \d+\)/);
  });
});
