import type { RunConfig } from './runConfig.ts';

/**
 * The instant lifecycle checks judge against: --now; else the Date header of the target's answer
 * to GET /models; else the local clock. Resolved once per run so every check agrees.
 */
export async function resolveReferenceTime(now: string | undefined, modelsUrl: string, apiKey: string, headers: Record<string, string> = {}): Promise<RunConfig['referenceTime']> {
  if (now !== undefined) return { value: new Date(now).toISOString(), source: 'flag' };
  try {
    const res = await fetch(modelsUrl, { headers: { ...headers, authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    const date = res.headers.get('date');
    if (date && !Number.isNaN(Date.parse(date))) return { value: new Date(date).toISOString(), source: 'server-date' };
  } catch {
    // No answer: the local clock is all there is; the checks that need the target will say why.
  }
  return { value: new Date().toISOString(), source: 'local-clock' };
}
