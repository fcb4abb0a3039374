import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import type { RunRecord, RunSummary } from '#harness/results/index.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { startServer, type TestServer } from '#harness/testing/httpTestServer.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { JUDGED_NOTHING } from '#harness/runner/execute.ts';
import { main } from './main.ts';

/**
 * A pass shows what it saw. Every check of the catalogue is walked against endpoints that show
 * nothing a pass could rest on (a web server's page to every request, an empty stream to every
 * request, `{}`, a 503 to every request, a recording whose exchanges are gone): none passes there, and the run is never PASS.
 * Against the embedded emulator every pass says what it judged.
 */
const tmp = tempDirs('svc-nothing-shown-');
const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const NOW = '2026-06-01T00:00:00Z';
const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; summary: RunSummary; records: RunRecord[]; dir: string }> {
  const dir = tmp();
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const io = captureIO();
    const code = await main(['run', ...args, '--quiet', '--report-dir', dir, '--json', join(dir, 'all.json')], io);
    if (!existsSync(join(dir, 'all.json'))) throw new Error(`run ${args.join(' ')} wrote no report (exit ${code}): ${io.err.join('\n')}`);
    const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { summary: RunSummary; records: RunRecord[] };
    return { code, ...all, dir };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Every check the run passed, with its model. */
const passes = (records: readonly RunRecord[]) => records.flatMap((r) => r.results.filter((x) => x.verdict === 'pass').map((x) => `${x.checkId} (${x.model})`));

const ANSWERS = {
  // What nginx answers before anyone configures it.
  'a web page': { status: 200, type: 'text/html', body: '<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body><h1>Welcome to nginx!</h1></body></html>' },
  'an empty stream': { status: 200, type: 'text/event-stream', body: '' },
} as const;

describe.each(Object.entries(ANSWERS))('an endpoint answering %s to every request', (_name, answer) => {
  test('no check of the catalogue passes, and the run fails', async () => {
    const server = await startServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body));
    });
    servers.push(server);
    const { code, summary, records } = await run(['--base-url', server.url, '--model', 'svc-v4-flash', '--now', NOW], { SVC_API_KEY: 'sk-nothing-shown' });
    expect(records.flatMap((r) => r.results).length).toBeGreaterThan(100);
    expect(passes(records)).toEqual([]);
    expect(summary.outcome).toBe('fail');
    expect(code).toBe(1);
    // The routes are said not to be the service's, each once; what needs them is blocked, not failed again.
    const served = records.flatMap((r) => r.results).filter((r) => r.checkId.startsWith('endpoint.') && r.checkId.endsWith('.served'));
    expect(served.length).toBeGreaterThan(0);
    for (const r of served) expect(r.failures?.[0]?.message, r.checkId).toMatch(/answered HTTP 200 with text\/(html|event-stream) and a body that is not JSON/);
  }, 120_000);
});

test('an endpoint answering `{}` to every request: only what a status shows passes (the route is served, the value accepted), nothing about an answer it never gave', async () => {
  const server = await startServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  servers.push(server);
  const { code, summary, records } = await run(['--base-url', server.url, '--model', 'svc-v4-flash', '--now', NOW], { SVC_API_KEY: 'sk-nothing-shown' });
  expect(summary.outcome).toBe('fail');
  expect(code).toBe(1);
  // What a 200 to a valid request shows, as the spec words each: served (JSON where JSON is due), accepted.
  const { spec } = loadSpec();
  const byId = new Map(buildRegistry(spec).all().map((c) => [c.id, c]));
  const passed = records.flatMap((r) => r.results).filter((r) => r.verdict === 'pass');
  expect(passed.length).toBeGreaterThan(0);
  expect(passed.filter((r) => byId.get(r.checkId)?.judges !== 'status').map((r) => r.checkId)).toEqual([]);
}, 120_000);

test('an endpoint answering 503 to every request: each route is said unavailable, nothing passes, what needs a route is blocked, and the run fails', async () => {
  // The spec's retry policy, its waits made instant (the policy is data: the harness waits what it says).
  const specDir = join(tmp(), 'spec');
  cpSync(fileURLToPath(new URL('../../spec/', import.meta.url)), specDir, { recursive: true });
  const errors = join(specDir, 'errors.yaml');
  writeFileSync(errors, readFileSync(errors, 'utf8').replace(/initial_delay_seconds: \d+/, 'initial_delay_seconds: 0.001').replace(/jitter_seconds: \{[^}]*\}/, 'jitter_seconds: { min: 0, max: 0 }').replace(/min_delay_after_503_seconds: \d+/, 'min_delay_after_503_seconds: 0'));
  let asked = 0;
  const server = await startServer((req, res) => {
    asked += 1;
    req.resume();
    req.on('end', () => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'the service is under maintenance', type: 'service_unavailable', code: 'overloaded', param: null } })));
  });
  servers.push(server);
  const { code, summary, records } = await run(['--spec', specDir, '--base-url', server.url, '--model', 'svc-v4-flash', '--now', NOW], { SVC_API_KEY: 'sk-nothing-shown' });
  const results = records.flatMap((r) => r.results);
  expect(results.length).toBeGreaterThan(100);
  expect(asked).toBeGreaterThan(0);
  expect(passes(records)).toEqual([]);
  // No check fails the endpoint for a "not now": the served checks end in error naming it, the rest are blocked or inconclusive.
  expect(results.filter((r) => r.verdict === 'fail').map((r) => r.checkId)).toEqual([]);
  const served = results.filter((r) => r.checkId.startsWith('endpoint.') && r.checkId.endsWith('.served'));
  expect(served.length).toBeGreaterThan(0);
  for (const r of served) expect([r.verdict, r.reason], r.checkId).toEqual(['error', expect.stringMatching(/answered HTTP 503 on each of its \d+ attempts/)]);
  expect(results.filter((r) => r.skipKind === 'blocked').length).toBeGreaterThan(50);
  expect(summary.outcome).not.toBe('pass');
  expect(code).toBe(1);
}, 120_000);

test('a recording whose exchanges are gone judges nothing: each check is not recorded, and the run is NOTHING JUDGED', async () => {
  const dir = join(tmp(), 'recording');
  cpSync(join(FIXTURES, 'emulator-after-retirement'), dir, { recursive: true });
  rmSync(join(dir, 'exchanges'), { recursive: true });
  mkdirSync(join(dir, 'exchanges'));
  const { code, summary, records } = await run(['--fixtures', dir, '--fast']);
  expect(passes(records)).toEqual([]);
  const results = records.flatMap((r) => r.results);
  // The replay's own answer (its 599) is evidence of nothing: no check fails or errors on it.
  expect(results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => `${r.checkId}: ${r.reason ?? r.failures?.[0]?.message}`)).toEqual([]);
  expect(results.filter((r) => r.skipKind === 'not-recorded').length).toBeGreaterThan(100);
  expect(summary.outcome).toBe('nothing-judged');
  expect(code).toBe(1);
}, 120_000);

test('against the embedded emulator every pass says what it judged, and the reports show it', async () => {
  const { code, records, dir } = await run(['--now', NOW, '--model', 'svc-v4-flash']);
  expect(code).toBe(0);
  const passed = records.flatMap((r) => r.results).filter((r) => r.verdict === 'pass');
  expect(passed.length).toBeGreaterThan(100);
  expect(passed.filter((r) => (r.judged?.exchanges ?? 0) < 1).map((r) => r.checkId)).toEqual([]);
  const md = readFileSync(join(dir, 'emulator', 'svc-v4-flash', 'report.md'), 'utf8');
  for (const r of passed) expect(md, r.checkId).toContain(`\`${r.checkId}\``);
  expect(md.match(/\): judged \d+ answers?/g)?.length).toBe(passed.length);
  // What it judged beyond answers: a stream's chunks, a property's values.
  const byId = new Map(passed.map((r) => [r.checkId, r]));
  expect(byId.get('stream.events.all-parse')?.judged?.chunks).toBeGreaterThan(1);
  expect(byId.get('property.valid-requests.accepted')?.judged?.cases).toBe(records[0]!.options.runs);
  expect(md).toMatch(/`stream\.events\.all-parse`[^\n]*judged \d+ answers?, \d+ chunks/);
}, 120_000);

/** What an endpoint may answer: a status, a media type and a body, anything from right to nonsense. */
const answerArb = fc.record({
  status: fc.constantFrom(200, 200, 201, 400, 401, 404, 422, 500),
  type: fc.constantFrom('application/json', 'text/event-stream', 'text/html', 'text/plain'),
  body: fc.oneof(
    fc.constant(''),
    fc.constant('{}'),
    fc.constant('<html><body>hello</body></html>'),
    fc.constant('data: {}\n\ndata: [DONE]\n\n'),
    fc.constant('data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n'),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.constant(JSON.stringify({ id: 'x', object: 'chat.completion', created: 1780000000, model: 'svc-v4-flash', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })),
  ),
});

test('a property over the whole registry: whatever an endpoint answers, no check passes on evidence that is empty', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(answerArb, { minLength: 1, maxLength: 4 }), async (answers) => {
      let n = 0;
      const server = await startServer((req, res) => {
        const a = answers[n++ % answers.length]!;
        req.resume();
        req.on('end', () => res.writeHead(a.status, { 'content-type': a.type }).end(a.body));
      });
      try {
        const { records } = await run(['--base-url', server.url, '--model', 'svc-v4-flash', '--now', NOW], { SVC_API_KEY: 'sk-nothing-shown' });
        const results = records.flatMap((r) => r.results);
        const passed = results.filter((r) => r.verdict === 'pass');
        // No check claimed a pass over nothing (the runner would have made it inconclusive, saying so:
        // execute.test.ts shows it does), every pass read at least one answer, and no more than the endpoint gave.
        expect(results.filter((r) => r.reason === JUDGED_NOTHING).map((r) => r.checkId)).toEqual([]);
        expect(passed.filter((r) => (r.judged?.exchanges ?? 0) < 1).map((r) => r.checkId)).toEqual([]);
        for (const r of passed) expect(r.judged!.exchanges, r.checkId).toBeLessThanOrEqual(n);
      } finally {
        await server.close();
      }
    }),
    { numRuns: 6, seed: 20261127 },
  );
}, 240_000);
