import { describe, expect, test } from 'vitest';
import { AnswerTimesMeter } from './answerTimes.ts';

describe('AnswerTimesMeter', () => {
  test('served (below 400) and refused (4xx but 429) apart; "not now" and server errors are neither', () => {
    const meter = new AnswerTimesMeter();
    for (const ms of [100, 300, 200]) meter.add(200, ms);
    meter.add(400, 3_000);
    meter.add(422, 1_000);
    meter.add(429, 9_999);
    meter.add(503, 9_999);
    meter.add(500, 9_999);
    expect(meter.figures()).toEqual({ served: { count: 3, p50Ms: 200, p95Ms: 300, maxMs: 300 }, refused: { count: 2, p50Ms: 1_000, p95Ms: 3_000, maxMs: 3_000 } });
    expect(new AnswerTimesMeter().figures()).toEqual({});
  });
});
