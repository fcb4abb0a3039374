import { clockFrom } from '#harness/core/clock.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import { FAULTS, isFaultId, startEmulator, type FaultId } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { onStopSignal } from '../interruptions.ts';
import { emulateInfo } from './emulateHelp.ts';

export const emulate: Command = {
  ...emulateInfo,
  async run(argv, io) {
    const { values } = parseFlags('emulate', argv, {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      now: { type: 'string' },
      fault: { type: 'string', multiple: true },
      'list-faults': { type: 'boolean' },
      seed: { type: 'string' },
      concurrency: { type: 'string' },
      capacity: { type: 'string' },
      'queue-bound': { type: 'string' },
      maintenance: { type: 'boolean' },
      'stream-interval': { type: 'string' },
      'latency-ms': { type: 'string' },
      'jitter-ms': { type: 'string' },
      'tokens-per-second': { type: 'string' },
      spec: { type: 'string' },
    });
    if (values['list-faults']) {
      const width = Math.max(...FAULTS.map((f) => f.id.length));
      for (const f of FAULTS) io.stdout(`${f.id.padEnd(width)}  [${f.area}] ${f.summary}`);
      return EXIT.ok;
    }
    const faults = (values.fault ?? []).map((name): FaultId => {
      if (!isFaultId(name)) throw new UsageError(`emulate: --fault ${name} is not in the catalogue. Run \`svc-conformance emulate --list-faults\`.`);
      return name;
    });
    let fixed: Date | undefined;
    if (values.now !== undefined) {
      fixed = new Date(values.now);
      if (Number.isNaN(fixed.getTime())) throw new UsageError(`emulate: --now ${JSON.stringify(values.now)} is not an ISO 8601 instant (e.g. 2026-07-24T15:58:00Z).`);
    }
    const port = integerFlag('port', values.port, 0, 65535) ?? 0;
    const seed = integerFlag('seed', values.seed, 0, 2 ** 32 - 1) ?? 0;
    const concurrencyPerKey = integerFlag('concurrency', values.concurrency, 1, 100_000) ?? 8;
    const capacity = integerFlag('capacity', values.capacity, 1, 100_000);
    const queueBound = integerFlag('queue-bound', values['queue-bound'], 0, 100_000);
    if (queueBound !== undefined && capacity === undefined) throw new UsageError('emulate: --queue-bound needs --capacity (it bounds the queue for the capacity).');
    const tokensPerSecond = integerFlag('tokens-per-second', values['tokens-per-second'], 1, 100_000);
    if (tokensPerSecond !== undefined && values['stream-interval'] !== undefined) throw new UsageError('emulate: give --tokens-per-second or --stream-interval, not both (one sets the other).');
    const streamIntervalMs = tokensPerSecond !== undefined ? Math.round(1000 / tokensPerSecond) : (integerFlag('stream-interval', values['stream-interval'], 0, 60_000) ?? 0);
    const latencyMs = integerFlag('latency-ms', values['latency-ms'], 0, 600_000) ?? 0;
    const latencyJitterMs = integerFlag('jitter-ms', values['jitter-ms'], 0, 600_000) ?? 0;
    const { spec } = loadSpec(values.spec);
    const emulator = await startEmulator({
      spec,
      port,
      ...(values.host ? { host: values.host } : {}),
      ...(values['api-key'] ? { apiKeys: values['api-key'] } : {}),
      ...(fixed ? { now: clockFrom(fixed) } : {}),
      faults,
      seed,
      concurrencyPerKey,
      ...(capacity !== undefined ? { capacity } : {}),
      ...(queueBound !== undefined ? { queueBound } : {}),
      maintenance: values.maintenance === true,
      streamIntervalMs,
      latencyMs,
      latencyJitterMs,
    }).catch((err: unknown) => {
      throw listenError(err, values.host ?? '127.0.0.1', port);
    });
    io.stdout(emulator.url);
    if (!values['api-key']) io.stdout(emulator.apiKey);
    await new Promise<void>((resolve) => {
      const done = onStopSignal(() => {
        done();
        resolve();
      });
    });
    await emulator.close();
    return EXIT.ok;
  },
};

/** Why the emulator could not listen, in the words of the flag that chose it; anything else is ours. */
function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    EADDRINUSE: `--port ${port} is taken on ${host}: another process listens there. Choose another port, or --port 0 for any free one.`,
    EACCES: `--port ${port} on ${host} needs privileges this process lacks. Choose a port above 1023, or --port 0 for any free one.`,
    ENOTFOUND: `--host ${host} does not resolve to an address. Give a name this machine resolves, or an address such as 127.0.0.1 or 0.0.0.0.`,
    EAI_AGAIN: `--host ${host} could not be resolved now (the name service did not answer). Give an address such as 127.0.0.1 or 0.0.0.0.`,
    EADDRNOTAVAIL: `--host ${host} is not an address of this machine. Give one of its addresses, 127.0.0.1, or 0.0.0.0 for all.`,
  };
  return code !== undefined && reasons[code] ? new UsageError(`emulate: ${reasons[code]} (${code})`) : err;
}

function integerFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`emulate: --${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)}).`);
  return n;
}
