/**
 * The figures of a load phase (`run --load N`) as a report shows them, computed once, here, from the
 * phase's LoadRun (core/load.ts): per step of requests in flight, what came back (200, 429, 503,
 * anything else) and how fast (time to first token, the gaps between chunks, output tokens per
 * second per stream and in all, the step's wall time), then the recovery after the peak. The names
 * are llmperf's, guidellm's and vLLM's `bench serve`'s. They are information beside the verdicts,
 * never a verdict: the `load.*` checks judge the same run, and nothing here fails a run.
 *
 * Percentiles are `quantile` of core/load.ts (nearest rank), over the step's values kept sorted in
 * the record (`samples`) rather than a histogram: a step sends two requests per slot, so its time to
 * first token and tokens per stream number at most 2 x N values (2,000 at N = 1,000), and its chunk
 * gaps about 16 per stream; kept whole, merging the steps of several shards is exact (the union of
 * their values), and every figure is the one function's value of the real numbers, not of a
 * bucket's bound. Above SAMPLE_CAP values a figure keeps SAMPLE_CAP of them at evenly spaced ranks
 * (its `count` still says how many there were), so a record stays bounded; its percentiles are then
 * within 1/SAMPLE_CAP of their rank, and a merge weighs each kept value by the values it stands for.
 */
import { quantile, stepRolesOf, type LoadExchange, type LoadRun } from '#harness/core/load.ts';

/** The most values a step keeps of each figure (`LoadSamples.values`). */
export const SAMPLE_CAP = 2000;

/** A step's values of one figure, sorted ascending. */
export interface LoadSamples {
  /** How many values the step had. */
  count: number;
  /** Every value when `count` <= SAMPLE_CAP, else SAMPLE_CAP of them at evenly spaced ranks. */
  values: number[];
}

/** What came back, by kind. `other`: any other status, and no answer at all (refused, reset, hung, cut before its status). */
export interface LoadCounts {
  requests: number;
  /** 200. */
  answered: number;
  refused429: number;
  refused503: number;
  other: number;
}

/** One step of the phase. Milliseconds; `null` where the step had nothing to measure (no stream, no usage). */
export interface LoadStepFigures extends LoadCounts {
  /** Requests in flight the step held (merged shards: their sum). */
  inFlight: number;
  /** From the step's first request sent to its last ended (merged shards: the longest). */
  wallMs: number | null;
  /** Output tokens of the 200 answers that reported usage; null when none did (0 when none was a 200). */
  completionTokens: number | null;
  /** Time to first token (streams: sending to the first chunk with text). */
  ttftMs: { p50: number | null; p95: number | null; p99: number | null };
  /** The gaps between consecutive chunks of every stream of the step. */
  chunkGapMs: { p95: number | null };
  /**
   * Output tokens per second: `perStream`, the median over streams of completion tokens / (end - first
   * token); `all`, the step's completion tokens / its wall time.
   */
  outputTokensPerSecond: { perStream: number | null; all: number | null };
  /** The values the percentiles are taken of, kept so that shards merge exactly (mergeLoadFigures). */
  samples: { ttftMs: LoadSamples; chunkGapMs: LoadSamples; streamTokensPerSecond: LoadSamples };
}

export interface LoadFigures {
  /** The phase's N: this record's (a shard's share of `--load N`), or merged shards' sum. */
  n: number;
  steps: LoadStepFigures[];
  /** Every step's requests, added up. */
  totals: LoadCounts;
  /**
   * After the peak: asked at rest within `windowMs`, and when it answered 200 again; `recoveredMs`
   * null when it did not within the window (merged shards: every shard's, else null).
   */
  recovery?: { windowMs: number; recoveredMs: number | null; tries: number };
  /** Why the phase ended before its last step (merged shards: each distinct reason). */
  endedEarly?: string;
}

/** Milliseconds and tokens per second to a tenth: finer is noise, and the record's bytes stay stable. */
const tenth = (v: number): number => Math.round(v * 10) / 10;

const nullable = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** Keeps at most `cap` values of `sorted`, at evenly spaced ranks. */
function thin(sorted: number[], cap = SAMPLE_CAP): number[] {
  if (sorted.length <= cap) return sorted;
  return Array.from({ length: cap }, (_, i) => sorted[Math.floor(((i + 0.5) * sorted.length) / cap)]!);
}

function samplesOf(values: readonly number[]): LoadSamples {
  const sorted = values.map(tenth).sort((a, b) => a - b);
  return { count: sorted.length, values: thin(sorted) };
}

/**
 * The union of several steps' values. Exact while every part kept all its values and the union is
 * within the cap; otherwise each kept value stands for count / kept values of its part, and the
 * union keeps SAMPLE_CAP values at evenly spaced ranks of that weighted whole.
 */
export function mergeSamples(parts: readonly LoadSamples[]): LoadSamples {
  const count = parts.reduce((n, p) => n + p.count, 0);
  if (parts.every((p) => p.values.length === p.count)) return { count, values: thin(parts.flatMap((p) => p.values).sort((a, b) => a - b)) };
  const weighted = parts.flatMap((p) => p.values.map((v) => ({ v, w: p.count / p.values.length }))).sort((a, b) => a.v - b.v);
  const values: number[] = [];
  let at = 0;
  let below = 0;
  for (let i = 0; i < SAMPLE_CAP; i++) {
    const rank = ((i + 0.5) * count) / SAMPLE_CAP;
    while (at < weighted.length - 1 && below + weighted[at]!.w <= rank) below += weighted[at++]!.w;
    values.push(weighted[at]!.v);
  }
  return { count, values };
}

/** The value at quantile q of a step's values (core/load.ts `quantile`); null when it has none. */
const pct = (s: LoadSamples, q: number): number | null => nullable(quantile(s.values, q));

/** A step's figures from its counts, wall time, tokens and values: the one place its percentiles and rates are taken. */
function stepOf(inFlight: number, counts: LoadCounts, wallMs: number | null, completionTokens: number | null, samples: LoadStepFigures['samples']): LoadStepFigures {
  const all = wallMs === null || wallMs <= 0 || completionTokens === null ? null : tenth(completionTokens / (wallMs / 1000));
  return {
    inFlight,
    ...counts,
    wallMs,
    completionTokens,
    ttftMs: { p50: pct(samples.ttftMs, 0.5), p95: pct(samples.ttftMs, 0.95), p99: pct(samples.ttftMs, 0.99) },
    chunkGapMs: { p95: pct(samples.chunkGapMs, 0.95) },
    outputTokensPerSecond: { perStream: pct(samples.streamTokensPerSecond, 0.5), all },
    samples,
  };
}

function countsOf(xs: readonly LoadExchange[]): LoadCounts {
  const is = (status: number) => xs.filter((x) => x.status === status).length;
  const answered = is(200);
  const refused429 = is(429);
  const refused503 = is(503);
  return { requests: xs.length, answered, refused429, refused503, other: xs.length - answered - refused429 - refused503 };
}

function addCounts(parts: readonly LoadCounts[]): LoadCounts {
  const sum = (k: keyof LoadCounts) => parts.reduce((n, p) => n + p[k], 0);
  return { requests: sum('requests'), answered: sum('answered'), refused429: sum('refused429'), refused503: sum('refused503'), other: sum('other') };
}

/** Output tokens per second of one stream, where it has them: its completion tokens over the time from its first token to its end. */
function streamRate(x: LoadExchange): number | undefined {
  if (!x.stream || x.completionTokens === undefined || x.firstTokenMs === undefined || x.endMs === undefined) return undefined;
  const span = x.endMs - x.firstTokenMs;
  return span > 0 ? x.completionTokens / (span / 1000) : undefined;
}

/**
 * The figures of one load phase. A request the run itself stopped (`trouble.kind` stopped: the run
 * was interrupted or its budget reached) is left out: it says nothing of the endpoint, and
 * `endedEarly` says why the phase ended.
 */
export function loadFiguresOf(run: LoadRun): LoadFigures {
  const sent = run.exchanges.filter((x) => x.trouble?.kind !== 'stopped');
  const stepCount = Math.min(run.steps.length, sent.reduce((n, x) => Math.max(n, x.step + 1), run.stepMs.length));
  const steps = Array.from({ length: stepCount }, (_, i) => {
    const xs = sent.filter((x) => x.step === i);
    const counts = countsOf(xs);
    const ok = xs.filter((x) => x.status === 200);
    const reported = ok.filter((x) => x.completionTokens !== undefined);
    const completionTokens = ok.length > 0 && reported.length === 0 ? null : reported.reduce((n, x) => n + x.completionTokens!, 0);
    const wall = run.stepMs[i];
    return stepOf(run.steps[i]!, counts, wall === undefined ? null : tenth(wall), completionTokens, {
      ttftMs: samplesOf(xs.flatMap((x) => (x.firstTokenMs === undefined ? [] : [x.firstTokenMs]))),
      chunkGapMs: samplesOf(xs.flatMap((x) => x.chunkGapsMs ?? [])),
      streamTokensPerSecond: samplesOf(xs.flatMap((x) => streamRate(x) ?? [])),
    });
  });
  const r = run.recovery;
  return {
    n: run.n,
    steps,
    totals: addCounts(steps),
    ...(r ? { recovery: { windowMs: tenth(r.windowMs), recoveredMs: r.recoveredMs === undefined ? null : tenth(r.recoveredMs), tries: r.tries.length } } : {}),
    ...(run.endedEarly === undefined ? {} : { endedEarly: run.endedEarly }),
  };
}

/**
 * Which of the four steps (core/load.ts stepRolesOf: 1, a quarter, a half, all of n) `inFlight` is:
 * 0 to 3, the first it equals, since stepsOf keeps the first of equal ones; undefined when it is none.
 */
function roleOf(n: number, inFlight: number): number | undefined {
  const role = stepRolesOf(n).indexOf(inFlight);
  return role < 0 ? undefined : role;
}

/**
 * The figures of one load phase driven by several shards at once (`--shard i/c`, each its share of
 * N against the same endpoint): each shard's step is one step of the whole, so the same step of
 * every shard is added up: requests in flight and counts add, tokens add, the wall time is the
 * longest, and every percentile is taken again of the union of the shards' values. Steps are
 * matched by which of stepsOf's steps they are (1, a quarter, a half, all of the shard's share), so
 * shares of unequal size still add their peaks together (a share of 2 has no quarter step; by index
 * its peak would be added to the others' quarter); a step none of stepsOf's is matched by index.
 * The recovery is the whole's: the longest window, recovered when every shard's endpoint was, at
 * the latest of them.
 */
export function mergeLoadFigures(parts: readonly LoadFigures[]): LoadFigures {
  if (parts.length === 1) return parts[0]!;
  const byRole = new Map<number, LoadStepFigures[]>();
  for (const p of parts) {
    p.steps.forEach((s, i) => {
      const role = roleOf(p.n, s.inFlight) ?? i;
      byRole.set(role, [...(byRole.get(role) ?? []), s]);
    });
  }
  const steps = [...byRole.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, ss]) => {
      const walls = ss.flatMap((s) => (s.wallMs === null ? [] : [s.wallMs]));
      const tokens = ss.flatMap((s) => (s.completionTokens === null ? [] : [s.completionTokens]));
      return stepOf(
        ss.reduce((n, s) => n + s.inFlight, 0),
        addCounts(ss),
        walls.length === 0 ? null : Math.max(...walls),
        tokens.length === 0 ? null : tokens.reduce((a, b) => a + b, 0),
        {
          ttftMs: mergeSamples(ss.map((s) => s.samples.ttftMs)),
          chunkGapMs: mergeSamples(ss.map((s) => s.samples.chunkGapMs)),
          streamTokensPerSecond: mergeSamples(ss.map((s) => s.samples.streamTokensPerSecond)),
        },
      );
    });
  const recoveries = parts.flatMap((p) => (p.recovery ? [p.recovery] : []));
  const recovered = recoveries.flatMap((r) => (r.recoveredMs === null ? [] : [r.recoveredMs]));
  const ended = [...new Set(parts.flatMap((p) => (p.endedEarly === undefined ? [] : [p.endedEarly])))];
  return {
    n: parts.reduce((n, p) => n + p.n, 0),
    steps,
    totals: addCounts(parts.map((p) => p.totals)),
    ...(recoveries.length > 0
      ? { recovery: { windowMs: Math.max(...recoveries.map((r) => r.windowMs)), recoveredMs: recovered.length === recoveries.length ? Math.max(...recovered) : null, tries: recoveries.reduce((n, r) => n + r.tries, 0) } }
      : {}),
    ...(ended.length > 0 ? { endedEarly: ended.join('; ') } : {}),
  };
}
