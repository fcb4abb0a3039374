import { isAbsolute, relative } from 'node:path';
import { clockFrom } from '#harness/core/clock.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import { MESSAGES_BASE_PATH } from '#harness/core/messagesPaths.ts';
import type { FaultId, StartOptions } from '#harness/emulator/index.ts';
import type { RecordedChecks } from '#harness/replay/recordedChecks.ts';
import { REPLAY_KEYS } from '#harness/replay/requestKey.ts';
import { readUpstreamLog } from '#harness/replay/fixtureFormat.ts';
import { holdUpstream } from '#harness/gateway/held.ts';
import { recordedUpstream } from '#harness/gateway/upstream.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { UpstreamRef } from '#harness/core/upstream.ts';

/** Where a run sends its requests. Checks never see this: they see base URLs through the transport. */
export interface Target {
  kind: 'emulator' | 'fixtures' | 'live';
  baseUrl: string;
  messagesBaseUrl: string;
  apiKey: string;
  apiKeyEnv: string;
  /** A second key whose balance is empty, for the 402 checks. */
  emptyBalanceKey?: string;
  /** fixtures: the recording's reference time (ISO), which lifecycle checks judge against. */
  clock?: string;
  /** fixtures: when the recording was made (ISO): its tokens are priced as of then. */
  recordedAt?: string;
  /** fixtures: the checks the recording holds, per model, when its manifest lists them. */
  recording?: RecordedChecks;
  /** A gateway run (--upstream-port): the harness's upstream side, which the gateway calls. */
  upstream?: UpstreamRef;
  close(): Promise<void>;
}

/** The messages base, when not given: {base_url}/anthropic (a choice of this project, core/messagesPaths.ts). */
export function defaultMessagesBase(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${MESSAGES_BASE_PATH}`;
}

/** The embedded emulator, in this process on an ephemeral loopback port. */
export async function emulatorTarget(spec: Spec, options: { now?: Date; faults?: readonly FaultId[]; load?: number } & Pick<StartOptions, 'latencyMs' | 'streamIntervalMs' | 'concurrencyPerKey'> = {}): Promise<Target> {
  // Loaded only for a run that serves one: a run against a live endpoint compiles none of it.
  const { DEFAULT_CONCURRENCY, generateKey, startEmulator } = await import('#harness/emulator/index.ts');
  // A run with a load phase of N meets the emulator under N requests, not its per-key cap (which
  // the description does not name): the load rules, and the faults that break them, are then seen.
  const perKey = options.concurrencyPerKey ?? (options.load !== undefined && options.load > DEFAULT_CONCURRENCY ? options.load : undefined);
  const apiKey = generateKey();
  // A second account with nothing left to spend, so the 402 rule can be checked.
  const emptyBalanceKey = generateKey();
  const emu = await startEmulator({
    spec,
    apiKeys: [apiKey, emptyBalanceKey],
    balances: { [emptyBalanceKey]: { currency: spec.pricing.currency, granted: '0', toppedUp: '0' } },
    ...(options.now ? { now: clockFrom(options.now) } : {}),
    faults: options.faults ?? [],
    ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}),
    ...(options.streamIntervalMs !== undefined ? { streamIntervalMs: options.streamIntervalMs } : {}),
    ...(perKey !== undefined ? { concurrencyPerKey: perKey } : {}),
  });
  return { kind: 'emulator', baseUrl: emu.url, messagesBaseUrl: defaultMessagesBase(emu.url), apiKey, emptyBalanceKey, apiKeyEnv: 'SVC_API_KEY', close: () => emu.close() };
}

/** A live endpoint; the key is read from the named environment variable, never from a flag. */
export function liveTarget(baseUrl: string, options: { messagesBaseUrl?: string; apiKeyEnv: string; emptyBalanceKeyEnv?: string; env?: NodeJS.ProcessEnv }): Target {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`run: --base-url ${JSON.stringify(baseUrl)} is not a URL (e.g. https://api.example.com).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`run: --base-url must be http or https (got ${url.protocol}).`);
  const key = (options.env ?? process.env)[options.apiKeyEnv];
  if (!key) throw new UsageError(`run: the environment variable ${options.apiKeyEnv} holds no API key. Export it, or name another with --api-key-env.`);
  let emptyBalanceKey: string | undefined;
  if (options.emptyBalanceKeyEnv !== undefined) {
    emptyBalanceKey = (options.env ?? process.env)[options.emptyBalanceKeyEnv];
    if (!emptyBalanceKey) throw new UsageError(`run: the environment variable ${options.emptyBalanceKeyEnv} (--empty-balance-key-env) holds no key.`);
  }
  const base = baseUrl.replace(/\/+$/, '');
  return { ...(emptyBalanceKey ? { emptyBalanceKey } : {}), kind: 'live', baseUrl: base, messagesBaseUrl: options.messagesBaseUrl ?? defaultMessagesBase(base), apiKey: key, apiKeyEnv: options.apiKeyEnv, close: async () => undefined };
}

/** A recording (`record --out DIR`), answered by a loopback replay server: nothing leaves the machine. */
export async function fixturesTarget(dir: string, options: { fast?: boolean } = {}): Promise<Target> {
  // Loaded here: msw (and the graphql it brings) is 30 ms of start-up that only a replay needs.
  const { startReplayServer } = await import('#harness/replay/replayServer.ts');
  let server: Awaited<ReturnType<typeof startReplayServer>>;
  try {
    server = await startReplayServer(dir, options);
  } catch (err) {
    throw new UsageError(`run: --fixtures ${dir} is not a readable recording (${err instanceof Error ? err.message : String(err)}). Make one with \`svc-conformance record --out DIR\`.`);
  }
  const { manifest } = server;
  // A gateway run's upstream side, as it was recorded: gateway.* checks judge against it again.
  const log = manifest.upstream === undefined ? undefined : readUpstreamLog(dir);
  const upstream = log === undefined ? undefined : holdUpstream(recordedUpstream(`${manifest.baseUrl} (its upstream, recorded)`, log, manifest.upstream!.anyKey, manifest.upstream!.kind === 'emulator'));
  return {
    kind: 'fixtures',
    baseUrl: server.url,
    // "/" is the base itself (a messages route at the bare host, as llama-server's): not a second slash.
    messagesBaseUrl: `${server.url}${manifest.messagesBasePath.replace(/\/+$/, '')}`,
    apiKey: REPLAY_KEYS[0],
    ...(manifest.emptyBalanceKey ? { emptyBalanceKey: REPLAY_KEYS[1] } : {}),
    apiKeyEnv: 'SVC_API_KEY',
    clock: manifest.clock,
    recordedAt: manifest.recordedAt,
    ...(manifest.checks ? { recording: { dir: shownPath(dir), checks: manifest.checks, ...(manifest.load === undefined ? {} : { load: manifest.load }) } } : {}),
    ...(upstream ? { upstream: upstream.ref } : {}),
    close: async () => {
      await upstream?.close();
      await server.close();
    },
  };
}

/** A path as a reason shows it: relative to the working directory when under it. */
function shownPath(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? dir : rel;
}
