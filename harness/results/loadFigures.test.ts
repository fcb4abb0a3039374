import { describe, expect, test } from 'vitest';
import { quantile, stepsOf, type LoadRun } from '#harness/core/load.ts';
import { madeUpLoadRun, rampLoadRun } from '#harness/testing/sampleLoad.ts';
import { loadFiguresOf, mergeLoadFigures, mergeSamples, SAMPLE_CAP, type LoadFigures } from './loadFigures.ts';

const figuresOf = (f: LoadFigures) => f.steps.map(({ samples: _samples, ...rest }) => rest);

describe('loadFiguresOf', () => {
  test('a made-up phase, worked out on paper: counts, percentiles, rates per step, the recovery', () => {
    const f = loadFiguresOf(madeUpLoadRun());
    expect(f.n).toBe(4);
    expect(figuresOf(f)).toEqual([
      { inFlight: 1, requests: 2, answered: 2, refused429: 0, refused503: 0, other: 0, wallMs: 300, completionTokens: 18, ttftMs: { p50: 100, p95: 100, p99: 100 }, chunkGapMs: { p95: 20 }, outputTokensPerSecond: { perStream: 50, all: 60 } },
      { inFlight: 2, requests: 4, answered: 1, refused429: 1, refused503: 1, other: 1, wallMs: 250, completionTokens: 5, ttftMs: { p50: 120, p95: 120, p99: 120 }, chunkGapMs: { p95: 30 }, outputTokensPerSecond: { perStream: 50, all: 20 } },
      // The request the run stopped says nothing of the endpoint: left out. The 500 is `other`;
      // the stream with no time between its first token and its end has no rate of its own.
      { inFlight: 4, requests: 3, answered: 2, refused429: 0, refused503: 0, other: 1, wallMs: 500, completionTokens: 23, ttftMs: { p50: 200, p95: 300, p99: 300 }, chunkGapMs: { p95: 60 }, outputTokensPerSecond: { perStream: 100, all: 46 } },
    ]);
    expect(f.totals).toEqual({ requests: 9, answered: 5, refused429: 1, refused503: 1, other: 2 });
    expect(f.recovery).toEqual({ windowMs: 2000, recoveredMs: 150, tries: 1 });
    expect(f).not.toHaveProperty('endedEarly');
    // The values the percentiles were taken of are kept, sorted.
    expect(f.steps[2]!.samples).toEqual({ ttftMs: { count: 2, values: [200, 300] }, chunkGapMs: { count: 3, values: [40, 50, 60] }, streamTokensPerSecond: { count: 1, values: [100] } });
  });

  test('null where a step had nothing to measure: no stream, no usage; an early end and no recovery are said', () => {
    const run = madeUpLoadRun();
    const plain: LoadRun = {
      ...run,
      exchanges: run.exchanges.filter((x) => x.step === 0).map((x) => ({ ...x, stream: false, firstTokenMs: undefined, chunkGapsMs: undefined, completionTokens: undefined } as typeof x)),
      stepMs: [300],
      recovery: { windowMs: 2000, tries: [] },
      endedEarly: 'the run was stopped (SIGINT)',
    };
    const f = loadFiguresOf(plain);
    expect(figuresOf(f)).toEqual([
      { inFlight: 1, requests: 2, answered: 2, refused429: 0, refused503: 0, other: 0, wallMs: 300, completionTokens: null, ttftMs: { p50: null, p95: null, p99: null }, chunkGapMs: { p95: null }, outputTokensPerSecond: { perStream: null, all: null } },
    ]);
    expect(f.recovery).toEqual({ windowMs: 2000, recoveredMs: null, tries: 0 });
    expect(f.endedEarly).toBe('the run was stopped (SIGINT)');
    // Nothing answered 200: no tokens came, which is 0 tokens/s, not unknown.
    const refused = loadFiguresOf({ ...run, exchanges: [run.exchanges[3]!], stepMs: [1, 4] });
    expect(refused.steps[1]!.outputTokensPerSecond.all).toBe(0);
    expect(refused.steps[0]!.requests).toBe(0);
  });

  test('percentiles are core/load.ts quantile of the step\'s values; JSON keeps null, never NaN', () => {
    const f = loadFiguresOf(rampLoadRun('svc-v4-flash', 16, { ttftMs: (n) => 100 + 10 * n, gapMs: () => 20, refused: (n) => (n === 16 ? 4 : 0) }));
    expect(f.steps.map((s) => s.inFlight)).toEqual(stepsOf(16));
    for (const s of f.steps) {
      expect(s.ttftMs.p95).toBe(quantile(s.samples.ttftMs.values, 0.95));
      expect(s.samples.ttftMs.values).toEqual([...s.samples.ttftMs.values].sort((a, b) => a - b));
    }
    expect(f.steps[3]).toMatchObject({ requests: 32, answered: 28, refused429: 4 });
    expect(JSON.stringify(loadFiguresOf({ ...madeUpLoadRun(), exchanges: [] }))).not.toMatch(/NaN/);
  });
});

describe('samples above the cap', () => {
  const many = (count: number, offset = 0) => Array.from({ length: count }, (_, i) => i + offset);

  test(`a step keeps at most ${SAMPLE_CAP} values at evenly spaced ranks, and says how many there were`, () => {
    const gaps = many(6000);
    const run: LoadRun = { ...madeUpLoadRun(), exchanges: [{ ...madeUpLoadRun().exchanges[0]!, chunkGapsMs: gaps }], stepMs: [300] };
    const s = loadFiguresOf(run).steps[0]!;
    expect(s.samples.chunkGapMs.count).toBe(6000);
    expect(s.samples.chunkGapMs.values).toHaveLength(SAMPLE_CAP);
    // Within a rank of 1/SAMPLE_CAP of the whole's.
    expect(Math.abs(s.chunkGapMs.p95! - quantile(gaps, 0.95))).toBeLessThanOrEqual(6000 / SAMPLE_CAP);
  });

  test('merging is exact while the union fits, weighted when a part was thinned', () => {
    const a = { count: 3, values: [1, 5, 9] };
    const b = { count: 2, values: [2, 7] };
    expect(mergeSamples([a, b])).toEqual({ count: 5, values: [1, 2, 5, 7, 9] });
    // 6000 values kept as 2000, with 1000 kept whole above them: the union's p50 is the thinned part's 3000th value.
    const thinned = { count: 6000, values: many(2000).map((i) => i * 3 + 1) };
    const whole = { count: 1000, values: many(1000, 100000) };
    const merged = mergeSamples([thinned, whole]);
    expect(merged.count).toBe(7000);
    expect(merged.values).toHaveLength(SAMPLE_CAP);
    expect(Math.abs(quantile(merged.values, 0.5) - 3500)).toBeLessThanOrEqual(7);
    expect(quantile(merged.values, 0.9)).toBeGreaterThanOrEqual(100000);
  });
});

describe('mergeLoadFigures: shards that drove their shares of N at once', () => {
  test('the same step of each shard adds up, and every figure equals the figures of the union of their requests', () => {
    const a = madeUpLoadRun();
    const b = rampLoadRun('svc-v4-flash', 4, { ttftMs: (n) => 80 * n, gapMs: (n) => 5 * n, refused: (n) => n - 1 });
    const merged = mergeLoadFigures([loadFiguresOf(a), loadFiguresOf(b)]);
    // One phase of N = 8 as the endpoint saw it: each step's requests of both shards.
    const union: LoadRun = {
      ...a,
      n: 8,
      steps: a.steps.map((s, i) => s + b.steps[i]!),
      exchanges: [...a.exchanges, ...b.exchanges],
      stepMs: a.stepMs.map((ms, i) => Math.max(ms, b.stepMs[i]!)),
      recovery: { windowMs: 5000, recoveredMs: 150, tries: [...a.recovery!.tries, ...b.recovery!.tries] },
    };
    expect(merged).toEqual(loadFiguresOf(union));
    expect(merged.steps.map((s) => s.inFlight)).toEqual([2, 4, 8]);
  });

  test('unequal shares add their peaks together: a share of 2 has no middle step', () => {
    const three = loadFiguresOf(rampLoadRun('m', 3, { ttftMs: () => 100, gapMs: () => 10, refused: () => 0 }));
    const two = loadFiguresOf(rampLoadRun('m', 2, { ttftMs: () => 200, gapMs: () => 10, refused: () => 0 }));
    expect([three.steps.map((s) => s.inFlight), two.steps.map((s) => s.inFlight)]).toEqual([[1, 2, 3], [1, 2]]);
    const merged = mergeLoadFigures([three, two]);
    expect(merged.n).toBe(5);
    expect(merged.steps.map((s) => s.inFlight)).toEqual([2, 2, 5]);
    expect(merged.steps.map((s) => s.requests)).toEqual([4, 4, 10]);
  });

  test('the whole recovered only when every shard did; early ends are each said once', () => {
    const ok = loadFiguresOf(madeUpLoadRun());
    const stuck: LoadFigures = { ...ok, recovery: { windowMs: 3000, recoveredMs: null, tries: 4 }, endedEarly: 'the budget was reached' };
    expect(mergeLoadFigures([ok, stuck])).toMatchObject({ recovery: { windowMs: 3000, recoveredMs: null, tries: 5 }, endedEarly: 'the budget was reached' });
    expect(mergeLoadFigures([ok, { ...ok, recovery: { windowMs: 2000, recoveredMs: 900, tries: 2 } }]).recovery).toEqual({ windowMs: 2000, recoveredMs: 900, tries: 3 });
    expect(mergeLoadFigures([stuck, stuck]).endedEarly).toBe('the budget was reached');
  });
});
