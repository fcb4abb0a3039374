/**
 * The emulator as the load test's child process, so its memory is measured alone. Started by
 * `runLoad` with an IPC channel; not a command of the CLI.
 *
 * In: LOAD_SERVER_OPTIONS (JSON of `LoadServerOptions`). Out, over IPC: `ready` with the URL, a
 * `sample` every `sampleMs`, and on `stop` the server's own view (`final`), then it exits 0.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadSpec } from '#harness/spec/load.ts';
import { startEmulator } from '#harness/emulator/index.ts';

export interface LoadServerOptions {
  keys: string[];
  concurrencyPerKey: number;
  streamIntervalMs: number;
  sampleMs: number;
}

export interface MemorySample {
  /** Milliseconds since the server was ready. */
  t: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Requests holding a slot of the limiter, over all keys, at the sample. */
  inFlight: number;
}

export type ServerMessage =
  | { type: 'ready'; url: string }
  | { type: 'sample'; sample: MemorySample }
  /** After a full garbage collection asked for by `gc`: the live heap, and RSS. */
  | { type: 'gc'; label: string; heapUsed: number; rss: number }
  | {
      type: 'final';
      /** Requests the limiter let in, and refused. */
      admitted: number;
      refused: number;
      /** For each refusal: how many requests of that key held a slot then -> how often. */
      inFlightAtRefusal: Record<string, number>;
      /** Most requests of one key that held a slot at once. */
      peakInFlightPerKey: number;
      eventLoopDelayP99Ms: number;
      eventLoopDelayMaxMs: number;
    };

const options = JSON.parse(process.env.LOAD_SERVER_OPTIONS ?? 'null') as LoadServerOptions | null;
if (!options || !process.send) {
  process.stderr.write('loadServer: start it through runLoad (needs LOAD_SERVER_OPTIONS and an IPC channel)\n');
  process.exit(2);
}
const send = (m: ServerMessage) => process.send?.(m);

const { spec } = loadSpec();
const emulator = await startEmulator({
  spec,
  apiKeys: options.keys,
  concurrencyPerKey: options.concurrencyPerKey,
  streamIntervalMs: options.streamIntervalMs,
  now: () => new Date('2026-06-01T00:00:00Z'),
  // Enough that no load run spends it: every admitted request stays a 200.
  balance: { currency: spec.pricing.currency, granted: '100000000', toppedUp: '0' },
});

// The server's own view of every admission: the limiter is wrapped, not changed.
const limiter = emulator.ctx.limiter;
const tryAcquire = limiter.tryAcquire.bind(limiter);
let admitted = 0;
let refused = 0;
let peakInFlightPerKey = 0;
const inFlightAtRefusal: Record<string, number> = {};
const holding = new Map<string, number>();
limiter.tryAcquire = (key: string) => {
  const release = tryAcquire(key);
  if (!release) {
    refused++;
    const n = String(limiter.inFlight(key));
    inFlightAtRefusal[n] = (inFlightAtRefusal[n] ?? 0) + 1;
    return undefined;
  }
  admitted++;
  peakInFlightPerKey = Math.max(peakInFlightPerKey, limiter.inFlight(key));
  holding.set(key, limiter.inFlight(key));
  return () => {
    release();
    holding.set(key, limiter.inFlight(key));
  };
};

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const started = performance.now();
const sample = () => {
  const m = process.memoryUsage();
  let inFlight = 0;
  for (const n of holding.values()) inFlight += n;
  send({ type: 'sample', sample: { t: Math.round(performance.now() - started), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, inFlight } });
};
const timer = setInterval(sample, options.sampleMs);

/** Present when node runs with --expose-gc (runLoad starts it so). */
const collect = (globalThis as { gc?: () => void }).gc;

process.on('message', (m: unknown) => {
  const message = m as { type?: string; label?: string } | null;
  if (message?.type === 'gc') {
    collect?.();
    const after = process.memoryUsage();
    send({ type: 'gc', label: message.label ?? '', heapUsed: after.heapUsed, rss: after.rss });
    return;
  }
  if (message?.type !== 'stop') return;
  clearInterval(timer);
  sample();
  delay.disable();
  send({
    type: 'final',
    admitted,
    refused,
    inFlightAtRefusal,
    peakInFlightPerKey,
    eventLoopDelayP99Ms: delay.percentile(99) / 1e6,
    eventLoopDelayMaxMs: delay.max / 1e6,
  });
  void emulator.close().then(() => process.disconnect());
});

send({ type: 'ready', url: emulator.url });
