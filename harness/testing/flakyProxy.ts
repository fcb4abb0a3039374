// Test support: an endpoint that keeps the contract only some of the time, as a real model does:
// a proxy in front of the emulator that breaks every third answer to the same chat request.
import { isRecord } from '#harness/core/isRecord.ts';
import { startProxy } from './proxy.ts';
import type { TestServer } from './httpTestServer.ts';

export interface FlakyProxy extends TestServer {
  /** How many answers it has broken so far. */
  broken(): number;
}

/**
 * Starts a proxy to `target` that adds 1 to `usage.total_tokens` of every `every`-th non-streamed
 * chat completion answering the same request (method, path and body), so usage.total checks fail on
 * that answer and pass on the others. Counting per request rather than over all traffic keeps the
 * break on the check's own request whatever else a run sends (the served-route probes ask other
 * things, in an order of their own): with `run --repeat 3`, exactly the third repetition's answer
 * to that request is broken. A counter, not chance: the same run breaks the same answer.
 */
export async function startFlakyProxy(target: string, every = 3): Promise<FlakyProxy> {
  const seen = new Map<string, number>();
  let broken = 0;
  const server = await startProxy(target, {
    rewriteJson(body, status, request) {
      if (status !== 200 || !isRecord(body) || body['object'] !== 'chat.completion' || !isRecord(body['usage'])) return body;
      const key = `${request.method} ${request.path} ${request.body?.toString('utf8') ?? ''}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      const usage = body['usage'];
      if (n % every !== 0 || typeof usage['total_tokens'] !== 'number') return body;
      broken += 1;
      return { ...body, usage: { ...usage, total_tokens: usage['total_tokens'] + 1 } };
    },
  });
  return { ...server, broken: () => broken };
}
