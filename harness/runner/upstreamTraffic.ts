import { jsonOf } from '#harness/core/parsesAsJson.ts';
import { markerFor } from '#harness/core/marker.ts';
import type { UpstreamExchange, UpstreamSide } from '#harness/core/upstream.ts';
import type { UpstreamTraffic } from '#harness/results/index.ts';

/**
 * A gateway run's traffic as its upstream saw it: how many requests each marked client request
 * caused there (the harness's own retries of an answer ride on the same marker), what reached the
 * upstream unpaired (a gateway's own probes, a request with no text to mark), and the model each
 * client model was sent upstream as.
 */
export async function upstreamTrafficOf(side: UpstreamSide, marks: ReadonlyMap<string, number>): Promise<UpstreamTraffic> {
  const seen = await side.all();
  const byMarker = new Map<string, UpstreamExchange[]>();
  for (const e of seen) if (e.marker !== undefined) byMarker.set(e.marker, [...(byMarker.get(e.marker) ?? []), e]);
  const perClientRequest: Record<string, number> = {};
  const models: Record<string, string> = {};
  let marked = 0;
  for (const [canonical, count] of marks) {
    const model = (jsonOf(canonical) as { model?: unknown } | undefined)?.model;
    for (let i = 0; i < count; i++) {
      marked += 1;
      const caused = byMarker.get(markerFor(canonical, i)) ?? [];
      perClientRequest[String(caused.length)] = (perClientRequest[String(caused.length)] ?? 0) + 1;
      const sent = caused[0] === undefined ? undefined : (jsonOf(caused[0].request.body) as { model?: unknown } | undefined)?.model;
      if (typeof model === 'string' && typeof sent === 'string') models[model] = sent;
    }
  }
  const paired = [...byMarker.values()].reduce((n, es) => n + es.length, 0);
  return { marked, requests: seen.length, paired, perClientRequest, models };
}
