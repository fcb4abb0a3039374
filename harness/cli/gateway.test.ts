import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { deadPort } from '#harness/testing/httpTestServer.ts';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult, Severity } from '#harness/core/outcome.ts';
import type { RunTraffic } from '#harness/results/index.ts';
import { startEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { GATEWAY_BEHAVIOURS, startGatewayProxy, type GatewayBehaviour } from '#harness/testing/gatewayProxy.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { createAjv } from '#harness/core/createAjv.ts';
import { main } from './main.ts';

/**
 * The harness as a gateway's upstream (issue 33), through the real CLI: a gateway of one behaviour
 * between the harness and its upstream port. Each that changes what the service said or was asked,
 * or misuses it, fails the gateway.* check of that rule at the strength its basis gives; each that
 * changes only what carries no meaning, or asks a 5xx again, leaves the run green.
 */
const KEY_ENV = 'SVC_GATEWAY_TEST_KEY';
const KEY = 'sk-gateway-test-client-key-0123';
process.env[KEY_ENV] = KEY;

/** What each breaking gateway fails: the check and its severity. */
const BREAKS: Partial<Record<GatewayBehaviour, [string, Severity][]>> = {
  'usage-recounted': [['gateway.usage.passed-on', 'must']],
  'cache-fields-dropped': [['gateway.usage.passed-on', 'must']],
  'reasoning-dropped': [['gateway.answer.passed-on', 'must'], ['gateway.stream.passed-on', 'must']],
  'parameter-dropped': [['gateway.request.parameters-passed-on', 'must']],
  // The messages format passed on as it came is judged too (gateway.messages.*), the same fault in it.
  'parameter-replaced': [['gateway.request.parameters-passed-on', 'must'], ['gateway.messages.parameters-translated', 'advisory']],
  'error-message-replaced': [['gateway.error.body-passed-on', 'should'], ['gateway.messages.error-body-passed-on', 'should']],
  '4xx-turned-500': [['gateway.error.status-passed-on', 'must'], ['gateway.messages.error-status-passed-on', 'must']],
  '400-retried': [['gateway.traffic.no-4xx-resent', 'should']],
  'retry-after-dropped': [['gateway.error.retry-after-passed-on', 'should']],
  'stream-held': [['gateway.stream.not-held', 'should']],
};
const GREEN: GatewayBehaviour[] = ['transparent', 'recut-streams', 'reserialise-json', 'rewrite-ids', 'retry-5xx-once'];

interface Run {
  code: number;
  results: CheckResult[];
  traffic: RunTraffic;
  dir: string;
  stderr: string;
}

const freshDir = tempDirs('svc-gateway-');

/**
 * `command` through a gateway of `behaviour` in front of the harness's upstream port. A port found
 * free can be taken again before the run listens on it (by another run's gateway, listening on an
 * ephemeral port meanwhile): the run then refuses it (EADDRINUSE), and is made again on another.
 */
async function throughGateway(behaviour: GatewayBehaviour, extra: string[] = [], command: 'run' | 'record' = 'run'): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    const port = await deadPort();
    const proxy = await startGatewayProxy(`http://127.0.0.1:${port}`, behaviour);
    const dir = freshDir();
    const io = captureIO();
    try {
      const code = await main([command, '--base-url', proxy.url, '--api-key-env', KEY_ENV, '--upstream-port', String(port), '--only', 'gateway', '--report-dir', join(dir, 'reports'), '--json', join(dir, 'run.json'), '--quiet', ...(command === 'record' ? ['--out', join(dir, 'recording')] : []), ...extra], io);
      if (code === 2 && io.text().includes('EADDRINUSE') && attempt < 3) continue;
      const all = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { records: { results: CheckResult[]; traffic: RunTraffic }[] };
      return { code, results: all.records.flatMap((r) => r.results), traffic: all.records[0]!.traffic, dir, stderr: io.err.join('\n') };
    } finally {
      await proxy.close();
    }
  }
}

const runs = new Map<GatewayBehaviour, Run>();
beforeAll(async () => {
  await Promise.all(GATEWAY_BEHAVIOURS.map(async (b) => runs.set(b, await throughGateway(b))));
}, 120_000);

const failing = (r: Run) => r.results.filter((x) => x.verdict === 'fail').map((x): [string, Severity] => [x.checkId, x.severity]).sort();

describe('a gateway of one fault fails the gateway.* check of that rule, at its strength', () => {
  test.each(Object.entries(BREAKS))('%s', (behaviour, expected) => {
    const run = runs.get(behaviour as GatewayBehaviour)!;
    expect(failing(run)).toEqual([...expected].sort());
    // A must failure fails the run; a should failure is reported and leaves it green (--strict fails it).
    expect(run.code).toBe(expected.some(([, s]) => s === 'must') ? 1 : 0);
  });

  test("a recount's both numbers are in the failure, and in the report", () => {
    const run = runs.get('usage-recounted')!;
    const usage = run.results.find((r) => r.checkId === 'gateway.usage.passed-on')!;
    const prompt = usage.failures!.find((f) => f.defect?.kind === 'changed' && f.defect.path === 'usage.prompt_tokens')!;
    expect(prompt.defect).toMatchObject({ kind: 'changed', change: 'replaced' });
    const d = prompt.defect as { atUpstream: string; atClient: string };
    expect(Number(d.atClient)).toBe(Number(d.atUpstream) + 5);
    const cell = readdirSync(join(run.dir, 'reports'), { withFileTypes: true }).find((f) => f.isDirectory())!.name;
    const md = readFileSync(join(run.dir, 'reports', cell, 'svc-v4-flash', 'report.md'), 'utf8');
    expect(md).toContain(`the upstream sent ${d.atUpstream}, the client was told ${d.atClient}`);
  });
});

describe('a gateway that changes nothing of meaning leaves the run green', () => {
  test.each(GREEN)('%s', (behaviour) => {
    const run = runs.get(behaviour)!;
    expect(failing(run)).toEqual([]);
    expect(run.code).toBe(0);
    // Every check judged something: none passed over nothing, none inconclusive.
    expect(run.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.checkId}: ${r.reason}`)).toEqual([]);
    expect(run.results.length).toBe(buildRegistry(loadSpec().spec).all().filter((c) => c.upstream === true).length);
    // One upstream request per client request; the 500 asked of the upstream is asked once more by the retrying one.
    const { marked, perClientRequest } = run.traffic.upstream!;
    expect(perClientRequest).toEqual(behaviour === 'retry-5xx-once' ? { '1': marked - 1, '2': 1 } : { '1': marked });
  });

  test('what it rewrote without meaning is named, never failed', () => {
    const ids = runs.get('rewrite-ids')!.results.find((r) => r.checkId === 'gateway.answer.passed-on')!;
    expect(ids.reason).toMatch(/changed, carrying no meaning: id: "chatcmpl-[^"]+" -> "gw-\d+"/);
    const fields = runs.get('reserialise-json')!.results.find((r) => r.checkId === 'gateway.stream.passed-on')!;
    expect(fields.reason).toContain('fields added: provider, x_gateway_meta');
    const retried = runs.get('retry-5xx-once')!.results.find((r) => r.checkId === 'gateway.error.status-passed-on')!.reason;
    expect(retried, retried).toMatch(/an upstream 500: HTTP 200 upstream, 200 at the client, 2 upstream request\(s\)/);
  });
});

describe('the whole plan through a gateway', () => {
  test('a transparent gateway in front of the harness, its key required upstream: every check of the run holds, the gateway.* ones too, and every request is paired', async () => {
    const port = await deadPort();
    const proxy = await startGatewayProxy(`http://127.0.0.1:${port}`, 'transparent');
    const dir = freshDir();
    try {
      const code = await main(['run', '--base-url', proxy.url, '--api-key-env', KEY_ENV, '--upstream-port', String(port), '--upstream-key-env', KEY_ENV, '--model', 'svc-v4-flash', '--now', '2026-06-01T00:00:00Z', '--quiet', '--report-dir', join(dir, 'r'), '--json', join(dir, 'run.json')], captureIO());
      const record = (JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { records: { results: CheckResult[]; traffic: RunTraffic }[] }).records[0]!;
      expect(record.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => r.checkId)).toEqual([]);
      expect(code).toBe(0);
      expect(record.results.filter((r) => r.area === 'gateway' && r.verdict === 'pass')).toHaveLength(buildRegistry(loadSpec().spec).all().filter((c) => c.upstream === true).length);
      // Every marked request reached the upstream, each once (the marker is in every message, and taken out before the emulator answers).
      expect(record.traffic.upstream!.perClientRequest).toEqual({ '1': record.traffic.upstream!.marked });
      expect(record.traffic.upstream!.marked).toBeGreaterThan(100);
    } finally {
      await proxy.close();
    }
  });
});

describe('the run says what its upstream is', () => {
  test('any key accepted, said; the gateway checks are planned only in a gateway run', async () => {
    expect(runs.get('transparent')!.stderr).toMatch(/the upstream for the gateway: the embedded emulator at http:\/\/127\.0\.0\.1:\d+; any key the gateway sends is accepted/);
    const io = captureIO();
    expect(await main(['run', '--only', 'gateway', '--quiet', '--report-dir', join(freshDir(), 'r')], io)).toBe(2);
    expect(io.text()).toContain('run: --only "gateway" selects the gateway checks, which a run has only with --upstream-port PORT (docs/endpoints.md, "Judging a gateway").');
  });

  test.each([
    [['--upstream-url', 'http://127.0.0.1:1'], '--upstream-url goes with --upstream-port PORT'],
    [['--upstream-key-env', 'X'], '--upstream-key-env goes with --upstream-port PORT'],
    [['--base-url', 'http://127.0.0.1:1', '--base-url', 'http://127.0.0.1:2', '--upstream-port', '18999'], 'give exactly one --base-url'],
    [['--upstream-port', '18999'], 'give exactly one --base-url'],
    [['--base-url', 'http://127.0.0.1:1', '--upstream-port', '0'], '--upstream-port must be a positive integer from 1 to 65535'],
    [['--base-url', 'http://127.0.0.1:1', '--upstream-port', '18999', '--upstream-key-env', 'SVC_NO_SUCH_VARIABLE_SET'], 'SVC_NO_SUCH_VARIABLE_SET (--upstream-key-env) holds no key'],
    [['--base-url', 'http://127.0.0.1:1', '--upstream-port', '18999', '--upstream-url', 'ftp://x'], '--upstream-url must be an http or https URL'],
  ])('%j is a usage error naming the flag', async (args, message) => {
    const io = captureIO();
    expect(await main(['run', '--api-key-env', KEY_ENV, '--quiet', '--report-dir', join(freshDir(), 'r'), ...args], io)).toBe(2);
    expect(io.text()).toContain(message);
  });

  test('a port something else listens on is a usage error saying what to do', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const io = captureIO();
      expect(await main(['run', '--base-url', 'http://127.0.0.1:1', '--api-key-env', KEY_ENV, '--upstream-port', String(port), '--quiet', '--report-dir', join(freshDir(), 'r')], io)).toBe(2);
      expect(io.text()).toContain(`--upstream-port ${port} cannot be listened on (EADDRINUSE): something else listens there`);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});

describe('a tap in front of a real service (--upstream-url)', () => {
  let service: Awaited<ReturnType<typeof startEmulator>>;
  beforeAll(async () => {
    service = await startEmulator({ spec: loadSpec().spec, apiKeys: [KEY], faults: [] });
  });
  afterAll(() => service.close());

  test('judges what the gateway changed against the real answers, injects nothing, and keeps no key', async () => {
    process.env.SVC_GATEWAY_HEADER_SECRET = 'hdr-secret-value-9876';
    // The gateway passes every client header on: a --header-env value reaches the tap too, and is kept nowhere.
    const run = await throughGateway('usage-recounted', ['--upstream-url', service.url, '--header-env', 'x-gateway-secret=SVC_GATEWAY_HEADER_SECRET'], 'record');
    const usage = run.results.find((r) => r.checkId === 'gateway.usage.passed-on')!;
    expect(usage.verdict).toBe('fail');
    const skipped = run.results.filter((r) => r.verdict === 'skip').map((r) => r.checkId).sort();
    expect(skipped).toEqual(['gateway.error.retry-after-passed-on', 'gateway.stream.cut-not-finished', 'gateway.stream.not-held']);
    const recording = join(run.dir, 'recording');
    for (const f of ['manifest.json', 'upstream.json', ...readdirSync(join(recording, 'exchanges')).map((e) => join('exchanges', e))]) {
      const text = readFileSync(join(recording, f), 'utf8');
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('hdr-secret-value-9876');
    }
    expect(readFileSync(join(recording, 'upstream.json'), 'utf8')).toContain('"x-gateway-secret": "[REDACTED]"');
    expect(JSON.parse(readFileSync(join(recording, 'manifest.json'), 'utf8')).upstream).toEqual({ kind: 'tap', anyKey: true });
  });
});

describe('a recording of a gateway run holds both sides, and its replay judges the same', () => {
  test('recorded, then replayed offline: the same verdict of every check, the recount with both numbers', async () => {
    const recorded = await throughGateway('usage-recounted', [], 'record');
    const io = captureIO();
    const dir = freshDir();
    const code = await main(['run', '--fixtures', join(recorded.dir, 'recording'), '--only', 'gateway', '--quiet', '--report-dir', join(dir, 'r'), '--json', join(dir, 'run.json')], io);
    const replayed = (JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { records: { results: CheckResult[] }[] }).records.flatMap((r) => r.results);
    const verdicts = (rs: CheckResult[]) => Object.fromEntries(rs.map((r) => [r.checkId, r.verdict]));
    expect(verdicts(replayed)).toEqual(verdicts(recorded.results));
    expect(code).toBe(recorded.code);
    const messages = (rs: CheckResult[]) => rs.flatMap((r) => (r.failures ?? []).map((f) => f.message)).sort();
    expect(messages(replayed)).toEqual(messages(recorded.results));
    expect(messages(replayed).some((m) => /usage\.prompt_tokens: the upstream sent \d+, the client was told \d+/.test(m))).toBe(true);
    // The upstream side is in the recording's format: the manifest says so, upstream.json holds it.
    const schema = JSON.parse(readFileSync(new URL('../../fixtures/fixture.schema.json', import.meta.url), 'utf8')) as { $defs: Record<string, object> };
    const ajv = createAjv();
    ajv.addSchema(schema, 'fixture');
    const log = JSON.parse(readFileSync(join(recorded.dir, 'recording', 'upstream.json'), 'utf8')) as unknown[];
    expect(log.length).toBeGreaterThan(20);
    expect(ajv.validate('fixture#/$defs/upstreamLog', log), JSON.stringify(ajv.errors)).toBe(true);
    expect(ajv.validate('fixture', JSON.parse(readFileSync(join(recorded.dir, 'recording', 'manifest.json'), 'utf8'))), JSON.stringify(ajv.errors)).toBe(true);
  });
});

describe('a gateway named in a config file (--config with --upstream-port, issue 49)', () => {
  /** A gateway that takes claude-code-router's ids (`provider,model`) and sends the model upstream alone. */
  const routing = (port: number) =>
    startProxy(`http://127.0.0.1:${port}`, { rewriteRequest: (b) => (isRecord(b) && typeof b.model === 'string' ? { ...b, model: b.model.split(',').slice(1).join(',') || b.model } : undefined) });
  const config = (targets: string[]) => {
    const file = join(freshDir(), 'svc-conformance.yaml');
    writeFileSync(file, `targets:\n${targets.map((url) => `  - base_url: ${url}\n    api_key_env: ${KEY_ENV}\n    model_map:\n      svc-v4-flash: emu,svc-v4-flash\n`).join('')}`);
    return file;
  };
  const gatewayRun = async (extra: (port: number) => string[]) => {
    for (let attempt = 1; ; attempt++) {
      const port = await deadPort();
      const proxy = await routing(port);
      const dir = freshDir();
      const io = captureIO();
      try {
        const code = await main(['run', '--config', config([proxy.url]), '--upstream-port', String(port), ...extra(port), '--only', 'gateway', '--model', 'svc-v4-flash', '--quiet', '--report-dir', join(dir, 'r'), '--json', join(dir, 'run.json')], io);
        if (code === 2 && io.text().includes('EADDRINUSE') && attempt < 3) continue;
        const results = (JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { records: { results: CheckResult[] }[] }).records.flatMap((r) => r.results);
        return { code, results, stderr: io.err.join('\n') };
      } finally {
        await proxy.close();
      }
    }
  };

  test("the file's one target is the gateway, its model_map's id (a comma in it) sent and stated, every gateway.* check judged", async () => {
    const run = await gatewayRun(() => []);
    expect(run.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.checkId}: ${r.reason}`)).toEqual([]);
    expect(run.results.length).toBe(buildRegistry(loadSpec().spec).all().filter((c) => c.upstream === true).length);
    expect(run.code).toBe(0);
    expect(run.results.find((r) => r.checkId === 'gateway.request.parameters-passed-on')!.reason).toContain('model emu,svc-v4-flash sent upstream as "svc-v4-flash"');
    expect(run.stderr).toMatch(/the upstream for the gateway: the embedded emulator at http:\/\/127\.0\.0\.1:\d+/);
  });

  test('with --upstream-url the port is a tap in front of the real service', async () => {
    const service = await startEmulator({ spec: loadSpec().spec, apiKeys: [KEY], faults: [] });
    try {
      const run = await gatewayRun(() => ['--upstream-url', service.url]);
      expect(run.stderr).toMatch(/the upstream for the gateway: a tap in front of the real service at http:\/\/127\.0\.0\.1:\d+/);
      expect(run.results.find((r) => r.checkId === 'gateway.usage.passed-on')!.verdict).toBe('pass');
      expect(run.code).toBe(0);
    } finally {
      await service.close();
    }
  });

  test('a file of two targets is refused: one upstream port judges one gateway', async () => {
    const io = captureIO();
    const file = config(['http://127.0.0.1:1', 'http://127.0.0.1:2']);
    expect(await main(['run', '--config', file, '--upstream-port', '18999', '--quiet', '--report-dir', join(freshDir(), 'r')], io)).toBe(2);
    expect(io.text()).toContain(`--upstream-port judges one gateway: give exactly one --base-url (the gateway's), or a --config with one target (${file} names 2 targets)`);
  });
});
