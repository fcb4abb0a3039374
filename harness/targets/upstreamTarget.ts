import { clockFrom } from '#harness/core/clock.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import type { UpstreamSide } from '#harness/core/upstream.ts';
import type { RunningEmulator } from '#harness/emulator/index.ts';
import { holdUpstream } from '#harness/gateway/held.ts';
import { startUpstream } from '#harness/gateway/upstream.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { Target } from './target.ts';

/** --upstream-port, --upstream-url, --upstream-key-env, as checked by the command. */
export interface UpstreamFlags {
  port: number;
  /** A real service to tap instead of serving the embedded emulator. */
  url?: string;
  /** The variable holding the key the gateway must present. */
  keyEnv?: string;
  now?: Date;
  env?: NodeJS.ProcessEnv;
  /** Values the gateway may pass on that must be written nowhere (--header-env values). */
  secrets?: readonly string[];
}

/** In flight at once for the upstream's one key: more than any gateway sends a run's requests with. */
const UNLIMITED = 10_000;

/** The upstream's own errors, which the emulator never gives: a key it does not take, a tapped service out of reach. */
const UPSTREAM_ERRORS: Record<number, { message: string; type: string; code: string }> = {
  401: { message: 'the gateway presented a key the upstream does not accept (--upstream-key-env)', type: 'authentication_error', code: 'invalid_api_key' },
  502: { message: 'the upstream the harness taps could not be reached', type: 'server_error', code: 'bad_gateway' },
};

/**
 * The target a gateway is, with the harness as its upstream (issue 33): the embedded emulator
 * served on 127.0.0.1:PORT (faults on purpose possible), or a tap there in front of `url`. The
 * upstream closes with the target.
 */
export async function withUpstream(target: Target, spec: Spec, flags: UpstreamFlags): Promise<Target> {
  const env = flags.env ?? process.env;
  let acceptKey: string | undefined;
  if (flags.keyEnv !== undefined) {
    acceptKey = env[flags.keyEnv];
    if (!acceptKey) throw new UsageError(`run: the environment variable ${flags.keyEnv} (--upstream-key-env) holds no key. Export the key your gateway sends upstream, or drop the flag to accept any key.`);
  }
  // Loaded only for a run with an upstream: a plain run compiles none of the emulator.
  const [{ generateKey, startEmulator }, { refusalResponse }, { serviceRefusal }] = await Promise.all([import('#harness/emulator/index.ts'), import('#harness/emulator/http/refusal.ts'), import('#harness/emulator/choices.ts')]);
  let emulator: RunningEmulator | undefined;
  let forward: Parameters<typeof startUpstream>[0]['forward'];
  if (flags.url === undefined) {
    const key = generateKey();
    // The gateway is judged, not its load: the upstream never answers 429 of its own (only on purpose).
    emulator = await startEmulator({ spec, apiKeys: [key], faults: [], concurrencyPerKey: UNLIMITED, ...(flags.now ? { now: clockFrom(flags.now) } : {}) });
    forward = { kind: 'emulator', url: emulator.url, key };
  } else {
    forward = { kind: 'tap', url: flags.url };
  }
  // A 429, 503 or 500 asked of the upstream is the emulator's own (choices.ts), in its words.
  const errorAnswer = (status: number, retryAfter?: number) => {
    const own = UPSTREAM_ERRORS[status];
    if (own !== undefined) return refusalResponse({ status, ...own, param: null });
    const service = status === 429 || status === 503 ? status : 500;
    return refusalResponse(serviceRefusal(spec, service, retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }));
  };
  let side: UpstreamSide;
  try {
    side = await startUpstream({ port: flags.port, forward, ...(acceptKey ? { acceptKey } : {}), errorAnswer, secrets: [target.apiKey, ...(acceptKey ? [acceptKey] : []), ...(forward.kind === 'emulator' ? [forward.key] : []), ...(flags.secrets ?? [])] });
  } catch (err) {
    await emulator?.close();
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`run: --upstream-port ${flags.port} cannot be listened on (${code ?? (err as Error).message}): ${code === 'EADDRINUSE' ? 'something else listens there; stop it, or give another port and point the gateway at it' : 'give a port from 1024 to 65535'}.`);
  }
  const held = holdUpstream(side);
  const close = target.close;
  return {
    ...target,
    upstream: held.ref,
    close: async () => {
      await close();
      await held.close();
      await emulator?.close();
    },
  };
}
