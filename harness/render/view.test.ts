import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { answerTimesNote, concurrencyNote, judgedLine } from './view.ts';

describe('where the adaptive limit went', () => {
  const base = { initial: 4, max: 64, adaptive: true, reached: 40, final: 32, decreases: 2 };
  test('each change with its reason, growths as one climb, the rest counted', () => {
    const note = concurrencyNote({
      ...base,
      highest: 64,
      changes: [
        { sinceMs: 900, atMs: 3_400, from: 4, to: 64, why: { kind: 'flat', latencyMs: 805 } },
        { sinceMs: 5_100, atMs: 5_100, from: 64, to: 32, why: { kind: 'refused', status: 429 } },
        { sinceMs: 6_000, atMs: 6_000, from: 32, to: 24, why: { kind: 'slower', shortMs: 1_900, longMs: 900 } },
      ],
      changesOmitted: 3,
    });
    expect(note).toBe('reached 40 (adaptive, started at 4, cap 64, ended at 32; came down 2 times; 4 → 64 from 900 ms to 3.4 s, answers as fast as at rest (805 ms); 64 → 32 at 5.1 s, answered 429; 32 → 24 at 6.0 s, answers slower (1.9 s lately, 900 ms usually); 3 changes more (report.json))');
  });

  test('a climb on refusals the run waited on says so, not that answers were fast', () => {
    const note = concurrencyNote({ ...base, changes: [{ sinceMs: 6_900, atMs: 14_400, from: 5, to: 7, why: { kind: 'waiting', latencyMs: 4_200 } }], changesOmitted: 0 });
    expect(note).toContain('5 → 7 from 6.9 s to 14.4 s, refusals the run waited on (4.2 s)');
  });

  test('a record written before the limit kept its changes reads as before', () => {
    expect(concurrencyNote(base)).toBe('reached 40 (adaptive, started at 4, cap 64, ended at 32; came down 2 times)');
  });
});

describe('how long answers took', () => {
  test('served and refused apart, each its median, 95th percentile and count; a kind never answered is left out', () => {
    expect(answerTimesNote({ served: { count: 270, p50Ms: 812, p95Ms: 1_100, maxMs: 2_000 }, refused: { count: 54, p50Ms: 3_200, p95Ms: 6_000, maxMs: 6_100 } })).toBe(
      'served in 812 ms (median; 95th percentile 1.1 s; 270 answers), refused in 3.2 s (median; 95th percentile 6.0 s; 54 answers)',
    );
    expect(answerTimesNote({ served: { count: 1, p50Ms: 5, p95Ms: 5, maxMs: 5 } })).toBe('served in 5 ms (median; 95th percentile 5 ms; 1 answer)');
  });
});

describe('what a verdict rests on', () => {
  test('the cases a check could not judge are named beside those it judged', () => {
    const r = { judged: { exchanges: 60, chunks: 540, cases: 28, notJudged: 28 } } as CheckResult;
    expect(judgedLine(r)).toBe('judged 60 answers, 540 chunks, 28 cases, 28 not judged');
    expect(judgedLine({ judged: { exchanges: 1, cases: 2 } } as CheckResult)).toBe('judged 1 answer, 2 cases');
  });
});
