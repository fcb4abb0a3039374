import { createApp, createContext } from '#harness/emulator/index.ts';
import { serveFetch, type FetchServer } from '#harness/core/http/fetchBridge.ts';
import type { Spec } from '#harness/spec/model.ts';

/**
 * The embedded emulator as a realistic endpoint for a benchmark: each answer after `latencyMs`,
 * stream events 20 ms apart (50 tokens a second), no per-key cap (the description names none: the
 * run's own limits are what is measured). `served` counts the requests it answered.
 */
export async function startLatentEmulator(spec: Spec, key: string, latencyMs: number, served: { count: number }): Promise<FetchServer> {
  const app = createApp(createContext({ spec, apiKeys: [key], latencyMs, streamIntervalMs: latencyMs > 0 ? 20 : 0, concurrencyPerKey: 1000 }));
  return serveFetch(async (req) => {
    served.count += 1;
    return app(req);
  }, { port: 0, host: '127.0.0.1', failure: () => new Response('internal error', { status: 500 }) });
}

/** What a benchmark measures of one run against latent emulators: its wall time, exit code, the requests served and the concurrency reached. */
export interface MeasuredRun {
  ms: number;
  code: number;
  served: number;
  reached: number;
}
