/**
 * The emulator under load: it runs in a child process of its own (so its memory is measured
 * alone), on loopback, and `clients` loops each keep one request in flight for `durationMs`, over
 * an undici Pool with one connection per client. Loopback only; the loops stop by themselves.
 *
 * Keys are shared so that the per-key concurrency limit is met from below, at and above: a share of
 * the clients use keys with half the limit of clients each, a share exactly the limit, and the rest
 * two and a half times the limit (only those may see a 429).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { quantile } from '#harness/core/load.ts';
import { concurrencyAt429, judgeLoad, type RequestRecord } from './judgeLoad.ts';
import type { LoadServerOptions, MemorySample, ServerMessage } from './loadServer.ts';

export interface LoadOptions {
  clients: number;
  durationMs: number;
  /** The emulator's per-key limit (its default is 8). */
  concurrencyPerKey: number;
  /** Between two stream events (0: the next turn of the event loop). */
  streamIntervalMs?: number;
  /** Memory sampling period of the server process (default 1000). */
  sampleMs?: number;
  /** A request unanswered this long is an error (default 30 s). */
  requestTimeoutMs?: number;
  /** Memory samples taken before this are reported but left out of the growth verdict (default 0). */
  warmupMs?: number;
}

export interface KeyGroup {
  name: 'under' | 'at' | 'over';
  clientsPerKey: number;
  keys: number;
}

export interface LoadReport {
  options: Required<LoadOptions>;
  groups: KeyGroup[];
  wallMs: number;
  requests: number;
  answered: number;
  requestsPerSecond: number;
  statuses: Record<string, number>;
  errors: Record<string, number>;
  malformed: number;
  latencyMs: { p50: number; p99: number; max: number; p50Ok: number; p99Ok: number };
  memory: {
    samples: MemorySample[];
    rssPeak: number;
    heapUsedPeak: number;
    rssStart: number;
    /** Heap used right after a full collection, at a third of the run and at its end (bytes). */
    liveHeapAtThird?: number;
    liveHeapAtEnd?: number;
  };
  /** Per 429: the key's in-flight count at the client (most over the 429's lifetime) -> how often. */
  clientInFlightAt429: Record<string, number>;
  /** Per 429 as the server decided it: slots the key held -> how often. */
  serverInFlightAtRefusal: Record<string, number>;
  /** 429s by key group. */
  tooManyByGroup: Record<KeyGroup['name'], number>;
  server: { admitted: number; refused: number; peakInFlightPerKey: number; eventLoopDelayP99Ms: number; eventLoopDelayMaxMs: number; crashed?: string };
  problems: string[];
}

/** The key groups for `clients` clients and a limit: 40% under it, 40% at it, the rest over it. */
export function keyGroups(clients: number, limit: number): KeyGroup[] {
  const under = Math.max(1, Math.ceil(limit / 2));
  const over = Math.ceil(limit * 2.5);
  const underKeys = Math.floor((clients * 0.4) / under);
  const atKeys = Math.floor((clients * 0.4) / limit);
  const overKeys = Math.floor((clients - underKeys * under - atKeys * limit) / over);
  const groups: KeyGroup[] = [
    { name: 'under', clientsPerKey: under, keys: underKeys },
    { name: 'at', clientsPerKey: limit, keys: atKeys },
    { name: 'over', clientsPerKey: over, keys: overKeys },
  ];
  // Whatever the rounding left goes to the keys under the limit, one client per key, so the total is exact.
  const left = clients - groups.reduce((n, g) => n + g.keys * g.clientsPerKey, 0);
  if (left > 0) groups.push({ name: 'under', clientsPerKey: 1, keys: left });
  return groups.filter((g) => g.keys > 0);
}

const FILLER = 'the quick brown fox jumps over the lazy dog while a conformance harness counts every token it sends'.split(' ');

/** Request n of a client: half streams, some plain completions, some cheap reads; long prompts fill the prompt cache. */
function requestOf(client: number, n: number): { method: 'GET' | 'POST'; path: string; body?: string; stream: boolean } {
  const slot = n % 10;
  if (slot === 8) return { method: 'GET', path: '/models', stream: false };
  if (slot === 9) return { method: 'GET', path: '/user/balance', stream: false };
  const stream = slot < 5;
  // Every other prompt is over the cache minimum and unique, so the cache grows to its bound.
  const words = n % 2 === 0 ? Array.from({ length: 90 }, (_, i) => FILLER[(i + client) % FILLER.length]) : ['hello'];
  const content = `client ${client} request ${n}: ${words.join(' ')}`;
  return { method: 'POST', path: '/chat/completions', stream, body: JSON.stringify({ model: 'svc-v4-flash', messages: [{ role: 'user', content }], max_tokens: 32, stream }) };
}

interface ServerHandle {
  child: ChildProcess;
  url: string;
  samples: MemorySample[];
  liveHeap: Record<string, { heapUsed: number; rss: number }>;
  crashed?: string;
  final: Promise<Extract<ServerMessage, { type: 'final' }>>;
}

async function startServer(options: LoadServerOptions): Promise<ServerHandle> {
  const entry = fileURLToPath(new URL('./loadServer.ts', import.meta.url));
  const child = fork(entry, [], {
    // tsx runs the TypeScript; it is resolved from the repository root, whatever the caller's directory.
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    // LOAD_SERVER_NODE_ARGS: extra node flags for the server alone (e.g. --cpu-prof to see where it spends).
    // --expose-gc: the live heap is measured after a full collection at a third of the run and at its end.
    execArgv: ['--expose-gc', '--import', 'tsx', ...(process.env.LOAD_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    env: { ...process.env, LOAD_SERVER_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const samples: MemorySample[] = [];
  let resolveFinal: (m: Extract<ServerMessage, { type: 'final' }>) => void = () => undefined;
  const final = new Promise<Extract<ServerMessage, { type: 'final' }>>((resolve) => (resolveFinal = resolve));
  const liveHeap: ServerHandle['liveHeap'] = {};
  const handle: Partial<ServerHandle> & { samples: MemorySample[] } = { child, samples, liveHeap, final };
  let stopping = false;
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (m: ServerMessage) => {
      if (m.type === 'ready') resolve(m.url);
      else if (m.type === 'sample') samples.push(m.sample);
      else if (m.type === 'gc') liveHeap[m.label] = { heapUsed: m.heapUsed, rss: m.rss };
      else if (m.type === 'final') {
        stopping = true;
        resolveFinal(m);
      }
    });
    child.on('exit', (code, signal) => {
      if (stopping && code === 0) return;
      handle.crashed = `exited with ${signal ?? `code ${code}`} during the run`;
      reject(new Error(`the load server ${handle.crashed}`));
    });
  });
  handle.url = url;
  return handle as ServerHandle;
}

/** Runs the load and returns every figure, with `problems` empty when the emulator held up. */
export async function runLoad(input: LoadOptions): Promise<LoadReport> {
  const options: Required<LoadOptions> = { streamIntervalMs: 0, sampleMs: 1000, requestTimeoutMs: 30_000, warmupMs: 0, ...input };
  const groups = keyGroups(options.clients, options.concurrencyPerKey);
  const keys: string[] = [];
  /** Client index -> key index; key index -> group. */
  const keyOfClient: number[] = [];
  const groupOfKey: KeyGroup['name'][] = [];
  for (const g of groups) {
    for (let k = 0; k < g.keys; k++) {
      const key = keys.push(`sk-load-${randomBytes(8).toString('hex')}`) - 1;
      groupOfKey[key] = g.name;
      for (let c = 0; c < g.clientsPerKey; c++) keyOfClient.push(key);
    }
  }
  const server = await startServer({ keys, concurrencyPerKey: options.concurrencyPerKey, streamIntervalMs: options.streamIntervalMs, sampleMs: options.sampleMs });
  const pool = new Pool(server.url, {
    connections: options.clients,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: options.requestTimeoutMs,
    bodyTimeout: options.requestTimeoutMs,
  });
  const records: RequestRecord[] = [];
  const started = performance.now();
  const deadline = started + options.durationMs;

  const client = async (c: number) => {
    const key = keyOfClient[c]!;
    const headers = { authorization: `Bearer ${keys[key]}`, 'content-type': 'application/json' };
    for (let n = 0; performance.now() < deadline; n++) {
      const req = requestOf(c, n);
      const record: RequestRecord = { key, start: performance.now(), end: 0 };
      try {
        const res = await pool.request({ method: req.method, path: req.path, headers, ...(req.body ? { body: req.body } : {}) });
        const text = await res.body.text();
        record.status = res.statusCode;
        if (res.statusCode === 200) record.malformed = req.stream ? !text.trimEnd().endsWith('data: [DONE]') : !parses(text);
      } catch (err) {
        record.error = (err as { code?: string }).code ?? (err as Error).message;
      }
      record.end = performance.now();
      records.push(record);
    }
  };
  // The live heap under full load, at a third of the run and at its end: a leak makes it grow.
  const measure = (label: string, at: number) => setTimeout(() => server.child.connected && server.child.send({ type: 'gc', label }), Math.max(0, at - performance.now()));
  const timers = [measure('third', started + options.durationMs / 3), measure('end', deadline)];
  await Promise.all(Array.from({ length: options.clients }, (_, c) => client(c)));
  timers.forEach(clearTimeout);
  const wallMs = performance.now() - started;
  await pool.close();

  // Still alive after the load, the server sends its own figures and exits 0; a crash shows here.
  let final: Extract<ServerMessage, { type: 'final' }> | undefined;
  if (server.crashed === undefined && server.child.connected) {
    server.child.send({ type: 'stop' });
    let timer: NodeJS.Timeout | undefined;
    final = await Promise.race([server.final, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 10_000)))]);
    clearTimeout(timer);
  }
  const crashed = server.crashed ?? (final === undefined ? 'did not report after the load' : undefined);
  if (server.child.exitCode === null) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.child.kill('SIGKILL');
        resolve();
      }, 5_000);
      server.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  const statuses: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const tooManyByGroup: Record<KeyGroup['name'], number> = { under: 0, at: 0, over: 0 };
  for (const r of records) {
    if (r.error !== undefined) errors[r.error] = (errors[r.error] ?? 0) + 1;
    else statuses[String(r.status)] = (statuses[String(r.status)] ?? 0) + 1;
    if (r.status === 429) tooManyByGroup[groupOfKey[r.key]!]++;
  }
  const durations = records.map((r) => r.end - r.start).sort((a, b) => a - b);
  const okDurations = records.filter((r) => r.status === 200).map((r) => r.end - r.start).sort((a, b) => a - b);
  const clientInFlightAt429: Record<string, number> = {};
  for (const n of concurrencyAt429(records)) clientInFlightAt429[String(n)] = (clientInFlightAt429[String(n)] ?? 0) + 1;
  const samples = server.samples;
  const inFlightAtRefusal = final?.inFlightAtRefusal ?? {};
  const problems = judgeLoad({ records, samples: samples.filter((x) => x.t >= options.warmupMs), concurrencyPerKey: options.concurrencyPerKey, inFlightAtRefusal, ...liveHeapOf(server), ...(crashed ? { crashed } : {}) });
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    options,
    groups,
    wallMs: Math.round(wallMs),
    requests: records.length,
    answered: records.filter((r) => r.status !== undefined).length,
    requestsPerSecond: Math.round(records.length / (wallMs / 1000)),
    statuses,
    errors,
    malformed: records.filter((r) => r.malformed).length,
    latencyMs: { p50: round(quantile(durations, 0.5)), p99: round(quantile(durations, 0.99)), max: round(durations.at(-1) ?? Number.NaN), p50Ok: round(quantile(okDurations, 0.5)), p99Ok: round(quantile(okDurations, 0.99)) },
    memory: { samples, rssPeak: Math.max(...samples.map((s) => s.rss)), heapUsedPeak: Math.max(...samples.map((s) => s.heapUsed)), rssStart: samples[0]?.rss ?? Number.NaN, liveHeapAtThird: server.liveHeap.third?.heapUsed, liveHeapAtEnd: server.liveHeap.end?.heapUsed },
    clientInFlightAt429,
    serverInFlightAtRefusal: inFlightAtRefusal,
    tooManyByGroup,
    server: {
      admitted: final?.admitted ?? 0,
      refused: final?.refused ?? 0,
      peakInFlightPerKey: final?.peakInFlightPerKey ?? 0,
      eventLoopDelayP99Ms: round(final?.eventLoopDelayP99Ms ?? Number.NaN),
      eventLoopDelayMaxMs: round(final?.eventLoopDelayMaxMs ?? Number.NaN),
      ...(crashed ? { crashed } : {}),
    },
    problems,
  };
}

function liveHeapOf(server: ServerHandle): { liveHeap?: { third: number; end: number } } {
  const { third, end } = server.liveHeap;
  return third && end ? { liveHeap: { third: third.heapUsed, end: end.heapUsed } } : {};
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
