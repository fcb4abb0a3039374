import { describe, expect, test } from 'vitest';
import { mergeRecords } from './mergeRecords.ts';
import { isMergeConflictError, MergeConflictError } from './MergeConflictError.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { summarize } from './summarize.ts';
import type { RunRecord, RunTraffic } from './runRecord.ts';
import { causesOf } from './causes.ts';
import { judgingOf } from './judging.ts';
import { gate } from './gate.ts';
import { scoreOf } from './score.ts';
import { loadFiguresOf, mergeLoadFigures } from './loadFigures.ts';
import { rampLoadRun } from '#harness/testing/sampleLoad.ts';

/** Shard `n` of 2 of the sample record: the results at even (n=1) or odd (n=2) positions. */
function shard(n: 1 | 2, over: Partial<RunRecord> = {}): RunRecord {
  const r = sampleRecord();
  const results = r.results.filter((_, i) => i % 2 === n - 1);
  return {
    ...r,
    options: { ...r.options, shard: `${n}/2` },
    results,
    summary: summarize(results),
    usage: n === 1 ? { promptTokens: 22, completionTokens: 40, cacheHitTokens: 0, costUsd: '0.0000109' } : { promptTokens: 20, completionTokens: 12, cacheHitTokens: 0, costUsd: '0.00001' },
    startedAt: n === 1 ? '2026-05-10T09:00:02.000Z' : '2026-05-10T09:00:00.000Z',
    finishedAt: n === 1 ? '2026-05-10T09:00:31.250Z' : '2026-05-10T09:00:20.000Z',
    ...over,
  };
}

function conflictOf(records: RunRecord[]): MergeConflictError {
  try {
    mergeRecords(records);
  } catch (e) {
    if (isMergeConflictError(e)) return e;
    throw e;
  }
  throw new Error('expected a MergeConflictError');
}

describe('mergeRecords', () => {
  test('two shards of one cell become one record: results concatenated, summary and usage recomputed, times widened', () => {
    const [merged, ...rest] = mergeRecords([shard(1), shard(2, { interrupted: true })]);
    expect(rest).toEqual([]);
    const whole = sampleRecord();
    expect(merged!.results.map((r) => r.checkId)).toEqual([...shard(1).results, ...shard(2).results].map((r) => r.checkId));
    expect(merged!.results).toHaveLength(whole.results.length);
    expect(merged!.summary).toEqual(whole.summary);
    expect(merged!.usage).toEqual({ promptTokens: 42, completionTokens: 52, cacheHitTokens: 0, costUsd: '0.0000209' });
    expect(merged!.startedAt).toBe('2026-05-10T09:00:00.000Z');
    expect(merged!.finishedAt).toBe('2026-05-10T09:00:31.250Z');
    expect(merged!.interrupted).toBe(true);
    expect(merged!.options).toEqual({ strict: false, runs: 25, seed: 1337, shard: '1/2,2/2' });
  });

  test('the merged cell keeps what the gate reads from its shards: the harsher signal, an early end', () => {
    const [merged] = mergeRecords([shard(1, { interrupted: true, interruptedBy: 'SIGINT' }), shard(2, { interrupted: true, interruptedBy: 'SIGTERM', endedEarly: { kind: 'key-refused', message: 'refused' } })]);
    expect(merged).toMatchObject({ interrupted: true, interruptedBy: 'SIGTERM', endedEarly: { kind: 'key-refused', message: 'refused' } });
    expect(gate([merged!]).exitCode).toBe(143);
    expect(mergeRecords([shard(1), shard(2)])[0]).not.toHaveProperty('interruptedBy');
  });

  test('records of other cells pass through, in the order of their first record', () => {
    const other = { ...sampleRecord(), model: 'svc-v4-pro' };
    const elsewhere = { ...sampleRecord(), target: { kind: 'live' as const, baseUrl: 'http://b.test', messagesBaseUrl: 'http://b.test/anthropic' } };
    const replayed = { ...sampleRecord(), target: { kind: 'fixtures' as const, baseUrl: 'http://127.0.0.1:43817', messagesBaseUrl: 'http://127.0.0.1:43817/anthropic' } };
    const merged = mergeRecords([other, shard(1), elsewhere, shard(2), replayed]);
    expect(merged.map((r) => [r.target.kind, r.target.baseUrl, r.model, r.results.length])).toEqual([
      ['emulator', 'http://127.0.0.1:43817', 'svc-v4-pro', 9],
      ['emulator', 'http://127.0.0.1:43817', 'svc-v4-flash', 9],
      ['live', 'http://b.test', 'svc-v4-flash', 9],
      ['fixtures', 'http://127.0.0.1:43817', 'svc-v4-flash', 9],
    ]);
    expect(merged[0]).toEqual({ ...other, causes: causesOf(other.results), judging: judgingOf(other.results) });
  });

  test('shards of the embedded emulator merge into one cell per model though each ran on its own port (targetKey)', () => {
    const at = (n: 1 | 2, port: number, kind: 'emulator' | 'fixtures' = 'emulator') =>
      shard(n, { target: { kind, baseUrl: `http://127.0.0.1:${port}`, messagesBaseUrl: `http://127.0.0.1:${port}/anthropic` } });
    const merged = mergeRecords([at(1, 40001), at(2, 40002)]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.results).toHaveLength(sampleRecord().results.length);
    expect(merged[0]!.target.baseUrl).toBe('http://127.0.0.1:40002'); // the earliest shard's
    expect(mergeRecords([at(1, 40001, 'fixtures'), at(2, 40002, 'fixtures')])).toHaveLength(1);
    // Each target kind is its own cell; a live endpoint is its base URL.
    expect(mergeRecords([at(1, 40001), at(2, 40002), at(1, 40003, 'fixtures'), at(2, 40004, 'fixtures')])).toHaveLength(2);
    const live = (n: 1 | 2, url: string) => shard(n, { target: { kind: 'live', baseUrl: url, messagesBaseUrl: `${url}/anthropic` } });
    expect(mergeRecords([live(1, 'https://a.test'), live(2, 'https://a.test'), live(1, 'https://b.test'), live(2, 'https://b.test')])).toHaveLength(2);
    expect(mergeRecords([live(1, 'https://a.test'), live(2, 'https://a.test')])).toHaveLength(1);
    // The messages base still has to agree, relative to the base URL for an emulator.
    const other = shard(2, { target: { kind: 'emulator', baseUrl: 'http://127.0.0.1:40002', messagesBaseUrl: 'http://127.0.0.1:40002/other' } });
    expect(conflictOf([at(1, 40001), other]).message).toMatch(/disagree on target\.messagesBaseUrl \("\{base_url\}\/anthropic" vs "\{base_url\}\/other"\)$/);
  });

  test('a shard missing is refused, naming it: shard 1/2 alone would pass for the whole run', () => {
    expect(conflictOf([shard(1)]).message).toBe("cannot merge the records of emulator (model svc-v4-flash): shard 2/2 is missing (given: 1/2): without it the merge would judge part of the run as the whole; give every shard's report.json or --json file");
    // A target's shards are counted over its cells: a model a shard held no check of leaves no record there.
    expect(mergeRecords([shard(1), shard(2), { ...shard(2), model: 'svc-v4-pro' }])).toHaveLength(2);
    const third = { ...shard(1), options: { ...shard(1).options, shard: '1/3' } };
    expect(conflictOf([third, shard(2)]).message).toMatch(/the shards split the run differently \(1\/3, 2\/2\)/);
  });

  test('a check id and model appearing twice is an error naming it and both shards', () => {
    const e = conflictOf([shard(1), shard(2, { results: [...shard(2).results, shard(1).results[1]!] })]);
    expect(e.message).toBe(
      'cannot merge the records of emulator (model svc-v4-flash): check stream.framing.ends-with-done (model svc-v4-flash) appears twice, in shard 1/2 and in shard 2/2',
    );
    expect(e.code).toBe('HARNESS_REPORT_MERGE');
    expect(e.exitCode).toBe(2);
  });

  test('the same record given twice is caught the same way; unlabelled records are named by position', () => {
    expect(conflictOf([sampleRecord(), sampleRecord()]).message).toMatch(/check response\.body\.matches-schema \(model svc-v4-flash\) appears twice, in record #1 and in record #2$/);
  });

  test('the same check id on another model is not a duplicate', () => {
    const two = shard(2, { results: [...shard(2).results, { ...shard(1).results[1]!, model: 'svc-v4-flash-alt' }] });
    expect(() => mergeRecords([shard(1), { ...two, summary: summarize(two.results) }])).not.toThrow();
  });

  test('shards that ran another spec revision or seed are refused, naming the field', () => {
    expect(conflictOf([shard(1), shard(2, { spec: { revision: 'v2026-06', updated: '2026-06-01' } })]).message).toMatch(
      /the shards disagree on spec\.revision \("v2026-05" vs "v2026-06"\)$/,
    );
    expect(conflictOf([shard(1), shard(2, { options: { strict: false, runs: 25, seed: 7, shard: '2/2' } })]).message).toMatch(/disagree on options\.seed/);
  });

  test('shards of a repeated run must agree on --repeat and --allow-flaky: a flaky verdict over 3 runs is not one over 5', () => {
    const repeated = (n: 1 | 2, repeat: number, allowFlaky?: boolean) => shard(n, { options: { ...shard(n).options, repeat, ...(allowFlaky ? { allowFlaky } : {}) } });
    expect(conflictOf([repeated(1, 3), repeated(2, 5)]).message).toMatch(/disagree on options\.repeat \(3 vs 5\)$/);
    expect(conflictOf([repeated(1, 3), repeated(2, 3, true)]).message).toMatch(/disagree on options\.allowFlaky/);
    expect(mergeRecords([repeated(1, 3), repeated(2, 3)])[0]!.options).toMatchObject({ repeat: 3, shard: '1/2,2/2' });
  });

  test('a single record comes back with its summary recounted', () => {
    const r = sampleRecord();
    expect(mergeRecords([r])).toEqual([{ ...r, causes: causesOf(r.results), judging: judgingOf(r.results) }]);
  });
});

describe('score and coverage of merged shards', () => {
  test('the score is recomputed from the merged results; a shard\'s coverage (its share only) is not kept', () => {
    const [merged] = mergeRecords([shard(1, { score: 1, coverage: { covered: 1, total: 9, percent: 11 } }), shard(2, { score: 2, coverage: { covered: 2, total: 9, percent: 22 } })]);
    expect(merged!.coverage).toBeUndefined();
    expect(merged!.score).toBe(scoreOf(sampleRecord()).score);
  });
});

describe('traffic of merged shards', () => {
  const traffic = (requests: number, retries: number, reached: number, final: number): RunTraffic => ({ requests, retries, concurrency: { initial: 4, max: 16, adaptive: true, reached, final, decreases: 1 } });

  test('requests and retries add up; concurrency is the shard\'s that reached the most, not a sum', () => {
    const [merged] = mergeRecords([shard(1, { traffic: traffic(120, 1, 16, 12) }), shard(2, { traffic: traffic(100, 2, 8, 8) })]);
    expect(merged!.traffic).toEqual({ requests: 220, retries: 3, concurrency: traffic(0, 0, 16, 12).concurrency });
  });

  test('a shard without it (an older report) leaves the merged cell without it, rather than short; a single record keeps its own', () => {
    expect(mergeRecords([shard(1, { traffic: traffic(120, 1, 16, 12) }), shard(2)])[0]).not.toHaveProperty('traffic');
    expect(mergeRecords([shard(2), shard(1, { traffic: traffic(120, 1, 16, 12) })])[0]).not.toHaveProperty('traffic');
    expect(mergeRecords([{ ...sampleRecord(), traffic: traffic(120, 1, 16, 12) }])[0]!.traffic).toEqual(traffic(120, 1, 16, 12));
  });
});

describe('the load phase of merged shards', () => {
  // `run --load 16 --shard i/2`: each shard drove 8 at the same endpoint at once.
  const share = (n: 1 | 2) => loadFiguresOf(rampLoadRun('svc-v4-flash', 8, { ttftMs: (k) => (n === 1 ? 100 : 140) + 10 * k, gapMs: () => 20, refused: (k) => (k === 8 ? n : 0) }));
  const loaded = (n: 1 | 2, over: Partial<RunRecord> = {}) => shard(n, { options: { ...shard(n).options, load: 16 }, load: share(n), ...over });

  test('the same step of each shard is one step of the whole: in flight and counts add, percentiles are taken again of both', () => {
    const [merged] = mergeRecords([loaded(1), loaded(2)]);
    expect(merged!.load).toEqual(mergeLoadFigures([share(1), share(2)]));
    expect(merged!.load!.n).toBe(16);
    expect(merged!.load!.steps.map((s) => [s.inFlight, s.requests, s.refused429])).toEqual([[2, 4, 0], [4, 8, 0], [8, 16, 0], [16, 32, 3]]);
    expect(merged!.load!.steps[3]!.samples.ttftMs.count).toBe(29);
    // The slower shard's values are in the whole's p95.
    expect(merged!.load!.steps[3]!.ttftMs.p95).toBeGreaterThan(share(1).steps[3]!.ttftMs.p95!);
  });

  test('a shard that drove none (its share 0) adds nothing; a single record keeps its own', () => {
    expect(mergeRecords([loaded(1), shard(2, { options: { ...shard(2).options, load: 16 } })])[0]!.load).toEqual(share(1));
    expect(mergeRecords([{ ...sampleRecord(), load: share(1) }])[0]!.load).toEqual(share(1));
    expect(mergeRecords([shard(1), shard(2)])[0]).not.toHaveProperty('load');
  });

  test('records that disagree are refused as any other disagreement: another --load, shares adding up to more than it', () => {
    expect(conflictOf([loaded(1), loaded(2, { options: { ...shard(2).options, load: 32 } })]).message).toMatch(/disagree on options\.load \(16 vs 32\)$/);
    const whole = loadFiguresOf(rampLoadRun('svc-v4-flash', 16, { ttftMs: () => 100, gapMs: () => 20, refused: () => 0 }));
    expect(conflictOf([loaded(1), loaded(2, { load: whole })]).message).toMatch(/the shards' load phases add up to 24 in flight, more than --load 16: merge the shards of one run$/);
  });
});
