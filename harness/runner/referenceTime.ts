import { dateHeaderMs, type Clock } from '#harness/core/clock.ts';
import { createTransport } from '#harness/transport/index.ts';
import type { RetryPolicy } from '#harness/spec/model.ts';
import { probeTiming, type Timing } from '#harness/transport/timing.ts';
import type { RunConfig } from './runConfig.ts';

export interface ReferenceTimeAsk {
  modelsUrl: string;
  apiKey: string;
  headers?: Record<string, string>;
  /** Secrets to scrub from anything said (the key, env-sourced header values). */
  secrets: readonly string[];
  retry: RetryPolicy;
  timing: Timing;
}

/**
 * The instant lifecycle checks judge against: --now; else the Date header of the target's answer
 * to GET /models; else the `local` clock. Resolved once per run so every check agrees. Asked through
 * the transport, with the run's timing (only as long as a connection may take: a Date header is no
 * reason to wait for a slow answer) and its redaction.
 */
export async function resolveReferenceTime(now: string | undefined, ask: ReferenceTimeAsk, local: Clock, stop?: AbortSignal): Promise<RunConfig['referenceTime']> {
  if (now !== undefined) return { value: new Date(now).toISOString(), source: 'flag' };
  // A stop ends the ask at once: a Date header is no check to give a grace to.
  const transport = createTransport({ secrets: ask.secrets, concurrency: 1, retry: { ...ask.retry, max_attempts: 1 }, timing: probeTiming(ask.timing), ...(stop ? { abandon: stop } : {}) });
  try {
    const res = await transport.send({ method: 'GET', url: ask.modelsUrl, headers: { ...ask.headers, authorization: `Bearer ${ask.apiKey}` } });
    const date = dateHeaderMs(res.headers.date);
    if (date !== undefined) return { value: new Date(date).toISOString(), source: 'server-date' };
  } catch {
    // No answer: the local clock is all there is; the checks that need the target will say why.
  } finally {
    await transport.close();
  }
  return { value: local().toISOString(), source: 'local-clock' };
}
