import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { startServer, type TestServer } from '#harness/testing/httpTestServer.ts';
import { startProxy } from '#harness/testing/proxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * No output ever holds the key. Full runs and recordings with canary keys, against the emulator
 * (the keys are accepted, so every check really spends them) and against a server that echoes the
 * key it receives back in its 401 bodies and headers (raw, masked, base64, URL-encoded), then every
 * byte the CLI wrote is searched: stdout, stderr, every report and fixture file, the --json file.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-secrets-');
const NOW = '2026-06-01T00:00:00Z';

/** A fresh canary per test run: a key no file in the repo can hold by accident. */
const canary = (label: string) => `sk-canary-${label}-${randomBytes(16).toString('hex')}`;

/** What a leak of `key` looks like: the key, any 12-character piece of it, its base64 and URL-encoded forms. */
export function leakForms(key: string): string[] {
  const forms = new Set<string>([key, encodeURIComponent(key), [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')]);
  for (let i = 0; i + 12 <= key.length; i++) forms.add(key.slice(i, i + 12));
  // Base64 of the key inside a longer text depends on where it starts: cover the three alignments,
  // without the edge characters a neighbour byte changes.
  for (let pad = 0; pad < 3; pad++) {
    const b64 = Buffer.from('\0'.repeat(pad) + key).toString('base64');
    const stable = b64.slice(pad === 0 ? 0 : 4, -4);
    forms.add(stable);
    forms.add(stable.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...forms];
}

/** Every place (by name) whose bytes hold a leak form of one of the keys. */
export function leaksIn(outputs: ReadonlyMap<string, Buffer>, keys: readonly string[]): string[] {
  const found: string[] = [];
  for (const key of keys) {
    const forms = leakForms(key);
    for (const [name, bytes] of outputs) {
      // latin1 maps each byte to one character, so an ASCII key is found byte for byte.
      const text = bytes.toString('latin1');
      const hit = forms.find((f) => text.includes(f) || name.includes(f));
      if (hit === undefined) continue;
      // Where it leaked, with the leak itself masked: a failing test prints no key either.
      const at = text.indexOf(hit);
      const around = at < 0 ? '(in the name)' : `${text.slice(Math.max(0, at - 160), at)}<LEAK>${text.slice(at + hit.length, at + hit.length + 60)}`;
      found.push(`${name}: holds a ${hit === key ? 'full key' : `${hit.length}-character form`} of ${key.slice(0, 12)}…: ${JSON.stringify(around)}`);
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Every output of one CLI invocation, by name: its printed lines, the bytes it wrote to the real streams, its files. */
interface Invocation {
  code: number;
  outputs: Map<string, Buffer>;
  fileCount: number;
}

/**
 * Runs the CLI in-process. Besides the command's own IO, the process's stdout and stderr are
 * tapped for the duration, so a line printed behind the CLI's back (a worker, a console call) is
 * searched too.
 */
/** `run` with `--json` to a fresh file and reports to a fresh folder: what it printed and wrote (the JSON file among them), and that file's text. */
async function runWithJson(args: string[]): Promise<{ run: Invocation; all: string }> {
  const reports = tmp();
  const json = join(tmp(), 'all.json');
  const run = await cli([...args, '--report-dir', reports, '--json', json], [reports]);
  run.outputs.set(json, readFileSync(json));
  return { run, all: readFileSync(json, 'utf8') };
}

/** The arguments that point a run at `url` live, its key (and the empty-balance key) read from the environment. */
const live = (url: string, keyEnv: string, emptyKeyEnv?: string) => ['--base-url', url, '--api-key-env', keyEnv, ...(emptyKeyEnv === undefined ? [] : ['--empty-balance-key-env', emptyKeyEnv]), '--now', NOW];

async function cli(argv: string[], dirs: string[]): Promise<Invocation> {
  const io = captureIO();
  const raw: Buffer[] = [];
  const tap = (stream: NodeJS.WriteStream) => {
    const write = stream.write.bind(stream);
    return vi.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      raw.push(Buffer.from(chunk));
      // The spy keeps write's own overloads; the arguments are passed on as they came.
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  };
  const spies = [tap(process.stdout), tap(process.stderr)];
  let code: number;
  try {
    code = await main(argv, io);
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
  const outputs = new Map<string, Buffer>([
    ['stdout (CommandIO)', Buffer.from(io.out.join('\n'))],
    ['stderr (CommandIO)', Buffer.from(io.err.join('\n'))],
    ['process stdout/stderr', Buffer.concat(raw)],
  ]);
  let fileCount = 0;
  for (const dir of dirs) {
    for (const file of filesUnder(dir)) {
      outputs.set(file, readFileSync(file));
      fileCount++;
    }
  }
  return { code, outputs, fileCount };
}

/** Counts, per key, the requests the emulator authenticated: proof the canary reached the server. */
function countAuthenticated(emu: RunningEmulator): Map<string, number> {
  const counts = new Map<string, number>();
  const limiter = emu.ctx.limiter;
  const tryAcquire = limiter.tryAcquire.bind(limiter);
  limiter.tryAcquire = (key: string) => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return tryAcquire(key);
  };
  return counts;
}

/**
 * A server that refuses every request (with 401, or what `statusOf` says) and echoes the credential it got, as carelessly as a
 * real one might: raw in the message and in headers, masked as the real service does, base64 and
 * URL-encoded. It counts the requests that carried each credential.
 */
/** `statusOf`: the status a key is refused with (default 401 to every key). */
function echoingHandler(seen: Map<string, number>, statusOf: (key: string) => number = () => 401) {
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      const xApiKey = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : '';
      const key = /^Bearer (.+)$/i.exec(auth)?.[1] ?? xApiKey;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const masked = key.length > 10 ? `${key.slice(0, 6)}${'*'.repeat(key.length - 10)}${key.slice(-4)}` : '***';
      const b64 = Buffer.from(key).toString('base64');
      const body = JSON.stringify({
        error: {
          message: `Authentication Fails, Your api key: ${masked} is invalid (got ${key}; base64 ${b64}; url ${encodeURIComponent(key)})`,
          type: 'authentication_error',
          param: null,
          code: 'invalid_request_error',
          received: { authorization: auth, 'x-api-key': xApiKey, base64: b64 },
        },
      });
      res.writeHead(statusOf(key), {
        'content-type': 'application/json',
        'www-authenticate': `Bearer realm="api", error="invalid_token", key="${key}"`,
        'x-echo-authorization': auth,
        'x-echo-key-base64': b64,
        'x-echo-key-url': encodeURIComponent(key),
      });
      res.end(body);
    });
  };
}

describe('the leak search can fail', () => {
  const key = 'sk-canary-0123456789abcdef0123456789abcdef';
  test.each([
    ['the key', `x ${key} y`],
    ['a 12-character piece of it', `…${key.slice(20, 32)}…`],
    ['its base64, at any offset', `a${Buffer.from(key).toString('base64')}`],
    ['its base64 inside a longer base64 text', Buffer.from(`Basic user:${key}`).toString('base64')],
    ['its base64url', Buffer.from(`xx${key}`).toString('base64url')],
    ['its percent-encoding', [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')],
  ])('finds %s', (_what, text) => {
    expect(leaksIn(new Map([['out', Buffer.from(text)]]), [key])).toHaveLength(1);
  });
  test('and finds nothing in a masked key or the variable name', () => {
    expect(leaksIn(new Map([['out', Buffer.from(`sk-can********************************cdef \${SVC_API_KEY} [REDACTED]`)]]), [key])).toEqual([]);
  });
});

describe('no output holds the key', () => {
  const key = canary('live');
  const emptyKey = canary('empty');
  let emu: RunningEmulator;
  let authenticated: Map<string, number>;

  beforeAll(async () => {
    emu = await startEmulator({
      spec,
      apiKeys: [key, emptyKey],
      balances: { [emptyKey]: { currency: spec.pricing.currency, granted: '0', toppedUp: '0' } },
      now: () => new Date(NOW),
      // Broken rules, so failures with evidence and curl reproducers are written too.
      faults: ['stream-malformed-event', 'usage-total-wrong', 'completion-wrong-object', 'auth-wrong-key-403', 'error-envelope-flat'],
    });
    authenticated = countAuthenticated(emu);
    process.env.SVC_SECRETS_KEY = key;
    process.env.SVC_SECRETS_EMPTY_KEY = emptyKey;
  });
  afterAll(async () => {
    delete process.env.SVC_SECRETS_KEY;
    delete process.env.SVC_SECRETS_EMPTY_KEY;
    await emu.close();
  });

  test('a full live run (every check, every model, --strict, --json) against the emulator', async () => {
    const { run, all } = await runWithJson(['run', ...live(emu.url, 'SVC_SECRETS_KEY', 'SVC_SECRETS_EMPTY_KEY'), '--strict']);
    expect(run.code).toBe(1);
    // The search means something: both keys were accepted and spent, and the run wrote failures with reproducers.
    expect(authenticated.get(key) ?? 0).toBeGreaterThan(100);
    expect(authenticated.get(emptyKey) ?? 0).toBeGreaterThan(0);
    expect(all).toContain('curl');
    expect(all).toContain('${SVC_SECRETS_KEY}');
    // The evidence recorded the key's header, redacted in place.
    expect(all).toContain('Bearer [REDACTED]');
    expect(run.fileCount).toBeGreaterThan(10);
    expect(leaksIn(run.outputs, [key, emptyKey])).toEqual([]);
  }, 180_000);

  test('a recording (record --out) of the same run', async () => {
    const reports = tmp();
    const out = tmp();
    const before = authenticated.get(key) ?? 0;
    const rec = await cli(['record', '--out', out, ...live(emu.url, 'SVC_SECRETS_KEY', 'SVC_SECRETS_EMPTY_KEY'), '--report-dir', reports], [reports, out]);
    expect(rec.code).toBe(1);
    expect((authenticated.get(key) ?? 0) - before).toBeGreaterThan(100);
    expect(filesUnder(join(out, 'exchanges')).length).toBeGreaterThan(100);
    expect(leaksIn(rec.outputs, [key, emptyKey])).toEqual([]);
  }, 180_000);
});

describe('a server that echoes the key it gets', () => {
  const key = canary('echoed');
  const emptyKey = canary('echoed-empty');
  const seen = new Map<string, number>();
  let server: TestServer;

  beforeAll(async () => {
    // The run's own key is refused with 403 (a key the server knows, forbidden): 401 to every request
    // carrying it would end the run after a few (transport/keyRefusal.ts), leaving few echoes to
    // search. The empty-balance key, and the auth checks' wrong and missing keys, get 401; a run
    // whose key is refused outright is searched below.
    server = await startServer(echoingHandler(seen, (k) => (k === key ? 403 : 401)));
    process.env.SVC_SECRETS_ECHO_KEY = key;
    process.env.SVC_SECRETS_ECHO_EMPTY_KEY = emptyKey;
  });
  afterAll(async () => {
    delete process.env.SVC_SECRETS_ECHO_KEY;
    delete process.env.SVC_SECRETS_ECHO_EMPTY_KEY;
    await server.close();
  });

  test('its 401 and 403 bodies and headers reach no report, reproducer, fixture or printed line', async () => {
    const { run, all } = await runWithJson(['run', ...live(server.url, 'SVC_SECRETS_ECHO_KEY', 'SVC_SECRETS_ECHO_EMPTY_KEY'), '--strict']);
    expect(run.code).toBe(1);
    expect(seen.get(key) ?? 0).toBeGreaterThan(50);
    expect(seen.get(emptyKey) ?? 0).toBeGreaterThan(0);
    // The echo was recorded as evidence, redacted: the masked form the real service sends stays readable.
    expect(all).toContain('Authentication Fails');
    expect(all).toContain('[REDACTED]');

    const out = tmp();
    const reports2 = tmp();
    const rec = await cli(['record', '--out', out, ...live(server.url, 'SVC_SECRETS_ECHO_KEY'), '--report-dir', reports2], [out, reports2]);
    expect(rec.code).toBe(1);
    expect(rec.fileCount).toBeGreaterThan(50);
    expect(readFileSync(filesUnder(join(out, 'exchanges'))[0]!, 'utf8')).toContain('x-echo-authorization');
    // Both searched before either is asserted, so a failure lists every leak at once.
    expect({ run: leaksIn(run.outputs, [key, emptyKey]), record: leaksIn(rec.outputs, [key]) }).toEqual({ run: [], record: [] });
  }, 180_000);
});

describe('a server that refuses the key with 401 and echoes it', () => {
  const key = canary('refused');
  const seen = new Map<string, number>();
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(echoingHandler(seen));
    process.env.SVC_SECRETS_REFUSED_KEY = key;
  });
  afterAll(async () => {
    delete process.env.SVC_SECRETS_REFUSED_KEY;
    await server.close();
  });

  test('the run ends early saying so, and the echoes reach no report, fixture or printed line', async () => {
    const out = tmp();
    const reports = tmp();
    const rec = await cli(['record', '--out', out, ...live(server.url, 'SVC_SECRETS_REFUSED_KEY'), '--report-dir', reports], [out, reports]);
    expect(rec.code).toBe(1);
    expect(rec.outputs.get('stderr (CommandIO)')?.toString()).toContain('the endpoint refused the API key');
    expect(seen.get(key) ?? 0).toBeGreaterThan(0);
    expect(readFileSync(filesUnder(join(out, 'exchanges'))[0]!, 'utf8')).toContain('x-echo-authorization');
    expect(leaksIn(rec.outputs, [key])).toEqual([]);
  }, 180_000);
});

describe('a gateway that routes on its own headers (--header, --header-env)', () => {
  const key = canary('gateway-key');
  // A label that is no header name: a 12-character piece of the canary must not match `x-route-token` itself.
  const token = canary('hdr');
  let emu: RunningEmulator;
  let proxy: TestServer;
  /** Requests the proxy let through, and those it refused for missing headers. */
  const counts = { forwarded: 0, refused: 0 };

  beforeAll(async () => {
    emu = await startEmulator({ spec, apiKeys: [key], now: () => new Date(NOW) });
    // Plain node:http in front of the emulator: 400 unless both routing headers arrive, as a
    // header-routed gateway answers a request it cannot place.
    proxy = await startProxy(emu.url, {
      answer: (req) => {
        if (req.headers['x-route'] === 'emulator' && req.headers['x-route-token'] === token) {
          counts.forwarded++;
          return undefined;
        }
        counts.refused++;
        return { status: 400, body: { error: { message: 'no route: send x-route and x-route-token', type: 'invalid_request_error', code: 'no_route' } } };
      },
    });
    process.env.SVC_GATEWAY_KEY = key;
    process.env.SVC_ROUTE_TOKEN = token;
  });
  afterAll(async () => {
    delete process.env.SVC_GATEWAY_KEY;
    delete process.env.SVC_ROUTE_TOKEN;
    await proxy.close();
    await emu.close();
  });

  const routed = (extra: string[]) => [...live(proxy.url, 'SVC_GATEWAY_KEY'), '--model', 'svc-v4-flash', '--quiet', ...extra];
  const headers = ['--header', 'x-route: emulator', '--header-env', 'x-route-token=SVC_ROUTE_TOKEN'];

  test('without the headers every request is refused: exit 1', async () => {
    const { run } = await runWithJson(['run', ...routed([])]);
    expect(run.code).toBe(1);
    expect(counts.refused).toBeGreaterThan(0);
  }, 60_000);

  test('with --header and --header-env the run passes, and the env-sourced value is in no byte written', async () => {
    const out = tmp();
    const before = counts.forwarded;
    const { run, all } = await runWithJson(['run', ...routed(headers)]);
    expect(run.code, run.outputs.get('stderr (CommandIO)')?.toString()).toBe(0);
    expect(counts.forwarded - before).toBeGreaterThan(50);
    // Recorded requests keep the plain header and redact the secret one.
    const rec = await cli(['record', '--out', out, ...routed(headers), '--report-dir', tmp()], [out]);
    expect(rec.code).toBe(0);
    const fixture = readFileSync(filesUnder(join(out, 'exchanges'))[0]!, 'utf8');
    expect(fixture).toContain('"x-route": "emulator"');
    expect(fixture).toContain('"x-route-token": "[REDACTED]"');
    expect(all).not.toContain(token);
    expect({ run: leaksIn(run.outputs, [token, key]), record: leaksIn(rec.outputs, [token, key]) }).toEqual({ run: [], record: [] });
  }, 120_000);
});
