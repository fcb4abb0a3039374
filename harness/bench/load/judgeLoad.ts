/**
 * The verdicts of a load run, from what the clients saw and what the server process reported.
 * Pure functions of the figures, so each can be shown to fail on made-up figures (judgeLoad.test.ts).
 */
import type { MemorySample } from './loadServer.ts';

/** One request as a client saw it: times are performance.now() of the client process. */
export interface RequestRecord {
  /** Index of the key it authenticated with. */
  key: number;
  /** Before the request was handed to the client library; after its body was read to the end. */
  start: number;
  end: number;
  status?: number;
  /** A socket or protocol error: the request got no HTTP answer. */
  error?: string;
  /** A 200 whose body is not what was asked (JSON that does not parse, a stream without [DONE]). */
  malformed?: boolean;
}

export interface MemoryBound {
  /** RSS peak of the first and last third of the samples, bytes. */
  firstThirdPeak: number;
  lastThirdPeak: number;
  /** Growth allowed between them: the larger of `slackBytes` and `slackRatio` of the first peak. */
  allowed: number;
  bounded: boolean;
}

/**
 * Allowed growth of the RSS peak from the first third to the last. Under this allocation rate V8
 * keeps enlarging its heap towards its next full collection for the first ~20 s, so RSS climbs
 * tens of MiB and then stays flat without any leak; the live heap after a full collection
 * (`LIVE_HEAP_SLACK`) is the sensitive measure.
 */
export const MEMORY_SLACK = { bytes: 64 * 1024 * 1024, ratio: 0.5 };

/** Allowed growth of the live heap (after a full collection) from a third of the run to its end. */
export const LIVE_HEAP_SLACK = { bytes: 16 * 1024 * 1024, ratio: 0.25 };

/** Whether RSS stopped growing: the last third's peak is within the slack of the first third's. */
export function memoryBound(samples: readonly MemorySample[], slack = MEMORY_SLACK): MemoryBound {
  if (samples.length < 3) throw new Error(`memoryBound: need at least 3 samples, got ${samples.length}`);
  const third = Math.floor(samples.length / 3);
  const peak = (xs: readonly MemorySample[]) => Math.max(...xs.map((s) => s.rss));
  const firstThirdPeak = peak(samples.slice(0, third));
  const lastThirdPeak = peak(samples.slice(samples.length - third));
  const allowed = Math.max(slack.bytes, firstThirdPeak * slack.ratio);
  return { firstThirdPeak, lastThirdPeak, allowed, bounded: lastThirdPeak - firstThirdPeak <= allowed };
}

/**
 * For each 429: the most requests of its key that the clients had in flight at once while it was
 * (the 429 itself included). The server decided the 429 at some instant inside the request's
 * client-side interval, and every request holding a slot then was in flight at the client too
 * (the client's interval starts before the server sees a request and ends after the server is done
 * with it), so a correct limiter only refuses where this count is above the limit.
 */
export function concurrencyAt429(records: readonly RequestRecord[]): number[] {
  const byKey = new Map<number, RequestRecord[]>();
  for (const r of records) {
    if (r.error !== undefined) continue;
    const list = byKey.get(r.key) ?? [];
    list.push(r);
    byKey.set(r.key, list);
  }
  const out: number[] = [];
  for (const list of byKey.values()) {
    // The key's in-flight count as a step function: +1 at each start, -1 at each end; at a tie the
    // start goes first, so the count is never under-estimated.
    const edges = list.flatMap((r) => [
      { t: r.start, d: 1 },
      { t: r.end, d: -1 },
    ]);
    edges.sort((a, b) => a.t - b.t || b.d - a.d);
    const times: number[] = [];
    const counts: number[] = [];
    let n = 0;
    for (const e of edges) {
      n += e.d;
      times.push(e.t);
      counts.push(n);
    }
    for (const r of list) {
      if (r.status !== 429) continue;
      // The count at r.start (after every edge at or before it; r's own start is one of them),
      // then after each later edge before r.end.
      let most = 0;
      for (let i = Math.max(0, upperBound(times, r.start) - 1); i < times.length && times[i]! < r.end; i++) most = Math.max(most, counts[i]!);
      out.push(most);
    }
  }
  return out;
}

/** First index whose time is above `t`. */
function upperBound(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface LoadFigures {
  records: readonly RequestRecord[];
  samples: readonly MemorySample[];
  concurrencyPerKey: number;
  /** How the server process ended: undefined while it still runs (no crash), else its exit. */
  crashed?: string;
  /** Server-side: requests of the key holding a slot at each refusal -> count. */
  inFlightAtRefusal: Readonly<Record<string, number>>;
  /** Heap used after a full collection at a third of the run and at its end, bytes; absent when not measured. */
  liveHeap?: { third: number; end: number };
}

/** Every broken property of a load run, as one line each; empty when the run is clean. */
export function judgeLoad(f: LoadFigures): string[] {
  const problems: string[] = [];
  if (f.crashed !== undefined) problems.push(`the emulator crashed: ${f.crashed}`);
  if (f.records.length === 0) problems.push('no request was sent');
  const errors = f.records.filter((r) => r.error !== undefined);
  if (errors.length > 0) {
    const kinds = [...new Set(errors.map((r) => r.error))].slice(0, 5).join('; ');
    problems.push(`${errors.length} request(s) got no HTTP answer (${kinds})`);
  }
  const odd = f.records.filter((r) => r.status !== undefined && r.status !== 200 && r.status !== 429);
  if (odd.length > 0) problems.push(`${odd.length} answer(s) neither 200 nor 429: ${[...new Set(odd.map((r) => r.status))].join(', ')}`);
  const malformed = f.records.filter((r) => r.malformed).length;
  if (malformed > 0) problems.push(`${malformed} 200 answer(s) with a broken body`);
  const early = concurrencyAt429(f.records).filter((n) => n <= f.concurrencyPerKey);
  if (early.length > 0) problems.push(`${early.length} 429(s) while the key had at most ${f.concurrencyPerKey} (the limit) in flight at the client: ${early.slice(0, 10).join(', ')}`);
  for (const [n, count] of Object.entries(f.inFlightAtRefusal)) {
    if (Number(n) < f.concurrencyPerKey) problems.push(`the server refused ${count} request(s) while the key held ${n} slot(s), under the limit ${f.concurrencyPerKey}`);
  }
  if (f.samples.length >= 3) {
    const m = memoryBound(f.samples);
    if (!m.bounded) problems.push(`RSS kept growing: peak ${mib(m.firstThirdPeak)} in the first third, ${mib(m.lastThirdPeak)} in the last (allowed +${mib(m.allowed)})`);
  } else problems.push(`too few memory samples to judge growth (${f.samples.length})`);
  if (f.liveHeap === undefined) problems.push('the live heap was not measured');
  else {
    const allowed = Math.max(LIVE_HEAP_SLACK.bytes, f.liveHeap.third * LIVE_HEAP_SLACK.ratio);
    if (f.liveHeap.end - f.liveHeap.third > allowed) problems.push(`the live heap grew: ${mib(f.liveHeap.third)} after a full collection at a third of the run, ${mib(f.liveHeap.end)} at the end (allowed +${mib(allowed)})`);
  }
  return problems;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
