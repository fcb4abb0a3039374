import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildRegistry } from '#harness/checks/index.ts';
import { INVALID_CLASSES_ID } from '#harness/checks/property/invalidClasses.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import type { TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy, type ProxyOptions } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { runCli } from '#harness/testing/cliRun.ts';

/**
 * Issue 47, item 1, as the field reports it: a request that must be refused, sent with `stream: true`,
 * answered 200 with an SSE error event (clawrouter#101) or 500 (ai-dial-adapter-openai#529), by a
 * proxy in front of the emulator that re-frames the emulator's refusals of streamed chat requests
 * (the same request unstreamed is refused as the spec says). Each fails the refusal's streamed twin
 * at must, and the run exits 1; through the same proxy passing every answer as it came, the twins pass.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-streamed-refusals-');
const NOW = '2026-06-01T00:00:00Z';
const KEY_VAR = 'SVC_STREAMED_REFUSALS_KEY';
const STREAMED = '.streamed';

const MODEL = 'svc-v4-flash';
/** The checks a run on MODEL has. */
const ids = new Set(buildRegistry(spec).all().filter((c) => c.appliesTo(spec.models[MODEL]!, MODEL)).map((c) => c.id));
/** The refusal checks that have a streamed twin: the refusal rules' (derived from the rules), the bounds' and the coverage classes'. */
const refusals = spec.rules.filter((r) => r.expect.status !== undefined || r.expect.status_any_of !== undefined || r.expect.error === true).map((r) => `rule.${r.id}`);
const bounds = [...ids].filter((id) => id.endsWith('.refused-beyond-bounds'));
const TWINNED = [...refusals, ...bounds, INVALID_CLASSES_ID].filter((id) => ids.has(`${id}${STREAMED}`));
const ONLY = TWINNED.map((id) => `${id}*`).join(',');

/** A refusal of what a streamed chat request says (not of its key or rate), as the emulator answered it. */
function streamedRefusal(status: number, request: { path: string; body?: Buffer }): boolean {
  if (!request.path.endsWith('/chat/completions') || status < 400 || status >= 500 || [401, 403, 429].includes(status)) return false;
  try {
    const sent: unknown = JSON.parse(request.body?.toString('utf8') ?? '');
    return typeof sent === 'object' && sent !== null && (sent as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

const CRASH = { status: 500, contentType: 'application/json', text: JSON.stringify({ error: { message: 'internal error', type: 'server_error', code: 'internal_error', param: null } }) };
/** One empty `messages` refused 500, streamed or not: one defect, the unstreamed check's. */
const emptyMessages = (request: { path: string; body?: Buffer }) => request.path.endsWith('/chat/completions') && /"messages":\[\]/.test(request.body?.toString('utf8') ?? '');

const PROXIES: Record<'sseError' | 'crash' | 'crashBoth' | 'passthrough', ProxyOptions> = {
  sseError: { replaceJson: (body, status, request) => (streamedRefusal(status, request) ? { status: 200, contentType: 'text/event-stream', text: `data: ${JSON.stringify(body)}\n\ndata: [DONE]\n\n` } : undefined) },
  crash: { replaceJson: (_body, status, request) => (streamedRefusal(status, request) ? CRASH : undefined) },
  crashBoth: { replaceJson: (_body, status, request) => (status === 400 && emptyMessages(request) ? CRASH : undefined) },
  passthrough: { replaceJson: () => undefined },
};

let emu: RunningEmulator;
const servers: TestServer[] = [];
const runs: Partial<Record<keyof typeof PROXIES, { code: number; results: CheckResult[] }>> = {};

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: ['sk-streamed-refusals-key'], now: () => new Date(NOW) });
  process.env[KEY_VAR] = 'sk-streamed-refusals-key';
  await Promise.all(
    (Object.keys(PROXIES) as (keyof typeof PROXIES)[]).map(async (name) => {
      const server = await startProxy(emu.url, PROXIES[name]);
      servers.push(server);
      const dir = tmp();
      const io = captureIO();
      const { code, results } = await runCli(['--base-url', server.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', MODEL, '--only', ONLY], dir, io);
      if (code === 2) throw new Error(io.err.join('\n'));
      runs[name] = { code, results };
    }),
  );
}, 120_000);
afterAll(async () => {
  delete process.env[KEY_VAR];
  await Promise.all(servers.map((s) => s.close()));
  await emu.close();
});

const resultOf = (name: keyof typeof PROXIES, id: string) => runs[name]!.results.find((r) => r.checkId === id);
/** The twins that judged here: the balance rule's needs a key with an empty balance, which this run does not name. */
const judged = (name: keyof typeof PROXIES) => TWINNED.filter((id) => resultOf('passthrough', `${id}${STREAMED}`)?.verdict === 'pass' && resultOf(name, `${id}${STREAMED}`) !== undefined);

test('the twins are derived from the rules: every refusal rule whose request can carry stream, and the coverage classes', () => {
  expect(TWINNED).toEqual(expect.arrayContaining(['rule.chat.messages.non-empty', 'rule.chat.model.valid-id', 'rule.chat.wrong-type', 'request.temperature.refused-beyond-bounds', INVALID_CLASSES_ID]));
  // A body that is not JSON cannot carry `stream`: no twin.
  expect(ids.has('rule.chat.invalid-json')).toBe(true);
  expect(ids.has(`rule.chat.invalid-json${STREAMED}`)).toBe(false);
});

describe('streamed refusals answered 200 with an SSE error event', () => {
  test('each streamed twin fails at must, with the event as its evidence; the unstreamed twins pass; exit 1', () => {
    const { code } = runs.sseError!;
    expect(code).toBe(1);
    expect(judged('sseError').length).toBeGreaterThanOrEqual(14);
    for (const id of judged('sseError')) {
      expect(resultOf('sseError', id)).toMatchObject({ verdict: 'pass' });
      const twin = resultOf('sseError', `${id}${STREAMED}`)!;
      expect(twin).toMatchObject({ verdict: 'fail', severity: 'must' });
      const failure = twin.failures![0]!;
      expect(failure.message).toMatch(/answered HTTP 200 with an error event in the stream, not refused.*data: \{"error":/);
      expect(failure.defect).toMatchObject({ kind: 'status', got: 200 });
      expect(failure.evidence?.response?.status).toBe(200);
    }
  });
});

describe('streamed refusals answered 500', () => {
  test('each streamed twin fails at must beside the 4xx its unstreamed twin got; exit 1', () => {
    const { code } = runs.crash!;
    expect(code).toBe(1);
    for (const id of judged('crash')) {
      expect(resultOf('crash', id)).toMatchObject({ verdict: 'pass' });
      const twin = resultOf('crash', `${id}${STREAMED}`)!;
      expect(twin).toMatchObject({ verdict: 'fail', severity: 'must' });
      const failure = twin.failures![0]!;
      expect(failure.defect).toMatchObject({ kind: 'status', got: 500 });
      expect(failure.message).toMatch(/the same request unstreamed was answered HTTP 4\d\d/);
      expect(failure.comparison?.response?.status).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('both twins answered 500', () => {
  test('one defect: the unstreamed check fails, and its streamed twin hands it there', () => {
    const id = 'rule.chat.messages.non-empty';
    expect(resultOf('crashBoth', id)).toMatchObject({ verdict: 'fail', severity: 'must' });
    expect(resultOf('crashBoth', `${id}${STREAMED}`)).toMatchObject({ verdict: 'skip', skipKind: 'inconclusive', handedTo: [{ check: id }] });
  });
});

describe('the clean emulator through the same proxy, passing every answer', () => {
  test('every twin, streamed and not, is green, and the run passes', () => {
    const { code, results } = runs.passthrough!;
    expect(code).toBe(0);
    expect(results.filter((r) => r.verdict === 'fail' || r.verdict === 'error')).toEqual([]);
    expect(judged('passthrough').length).toBeGreaterThanOrEqual(14);
  });
});
