import { headOf } from '#harness/core/outcome.ts';
import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { cleanRecord, withResults } from '#harness/testing/outcomeRecords.ts';
import { cellGate, gate } from './gate.ts';
import { judgingAcross, judgingOf, leadingReasons, notJudgedWords } from './judging.ts';

const SCHEMA = 'schema.chat-completion.matches-schema';

/** A must-check of `model`, not judged as `over` says. */
function unjudged(checkId: string, over: Partial<CheckResult>, model = 'svc-v4-flash'): CheckResult {
  return resultOf({ checkId, title: checkId, area: checkId.split('.')[0]!, severity: 'must', specRefs: [], model, verdict: 'skip', skipKind: 'inconclusive', durationMs: 1, ...over });
}

/** Handed to the schema check: the answer carried no message. */
const noMessage = (i: number, model?: string) =>
  unjudged(`rule.n${i}.judges-content`, {
    reason: `inconclusive: the completion carries no message (choices[0].message) whose content could be judged; ${SCHEMA} fails on it: one defect, reported there`,
    handedTo: [{ check: SCHEMA, request: 'POST http://127.0.0.1:1/chat/completions', defect: 'the answers carried no message' }],
  }, model);

/** A premise in words, its values different on each check. */
const premise = (i: number, model?: string) => unjudged(`stream.n${i}.adds-up`, { reason: `inconclusive: the stream ended on its own after ${i + 3} tokens, below max_tokens 5: it was never cut, so how a cut is reported cannot be seen` }, model);

describe('the leading reasons results were not judged', () => {
  test('grouped by the defect handed, with the check it was handed to; a premise by its first clause, its values folded', () => {
    const results = [...Array.from({ length: 18 }, (_, i) => noMessage(i)), ...Array.from({ length: 7 }, (_, i) => premise(i))];
    expect(leadingReasons(results)).toEqual([
      { kind: 'inconclusive', count: 18, reason: 'the answers carried no message', handedTo: SCHEMA },
      { kind: 'inconclusive', count: 7, reason: 'the stream ended on its own after N tokens, below max_tokens N' },
    ]);
    // one premise, one set of values: said in its own words
    expect(leadingReasons([premise(2), premise(2)])[0]!.reason).toBe('the stream ended on its own after 5 tokens, below max_tokens 5');
  });

  test('a reason naming its own check or model groups with the same premise on other checks and models', () => {
    const notRecorded = (checkId: string, model: string) => unjudged(checkId, { skipKind: 'not-recorded', reason: `not recorded: the recording fixtures/x holds no exchange of ${checkId} on ${model}; record it again with this check to judge it` }, model);
    expect(leadingReasons([notRecorded('a.b.c', 'svc-v4-flash'), notRecorded('d.e.f', 'svc-v4-flash')])).toEqual([{ kind: 'not-recorded', count: 2, reason: 'the recording fixtures/x holds no exchange of the check on svc-v4-flash' }]);
    expect(judgingAcross([[notRecorded('a.b.c', 'svc-v4-flash')], [notRecorded('a.b.c', 'svc-v4-pro')]]).reasons).toEqual([{ kind: 'not-recorded', count: 2, reason: 'the recording fixtures/x holds no exchange of the check on the model' }]);
  });

  test('the kind\'s prefix and the check a block names are left out; a first clause too short to say anything is not cut', () => {
    const blocked = unjudged('rule.fim.x', { skipKind: 'blocked', reason: 'blocked by endpoint.fim.served: the endpoint answered HTTP 404 (a path that does not exist): not served' });
    const short = unjudged('usage.x', { reason: 'inconclusive: the stream: usage has no numeric `prompt_cache_hit_tokens` to add up (the description does not say)' });
    expect(leadingReasons([blocked, short]).map((r) => r.reason)).toEqual(['the stream: usage has no numeric `prompt_cache_hit_tokens` to add up', 'the endpoint answered HTTP 404']);
  });

  test('an error by its typed cause; unsupported by its premise; quoted values folded', () => {
    const error = (what: string) => unjudged('a.b.c', { verdict: 'error', reason: 'whatever it said', cause: { code: 'HARNESS_TIMEOUT', what }, skipKind: undefined });
    const unsupported = (said: string) => unjudged('fim.x.y', { verdict: 'unsupported', skipKind: undefined, reason: `the target refused "${said}" with a well-formed error` });
    expect(leadingReasons([error('no answer in 30 s'), error('no answer in 30 s'), unsupported('a'), unsupported('b')])).toEqual([
      { kind: 'unsupported', count: 2, reason: 'the target refused "…" with a well-formed error' },
      { kind: 'error', count: 2, reason: 'HARNESS_TIMEOUT: no answer in 30 s' },
    ]);
  });

  test('at most three, the largest first; ties broken the same way whatever the order of the results', () => {
    const results = ['d', 'c', 'b', 'a'].flatMap((w, i) => Array.from({ length: i === 0 ? 3 : 2 }, (_, j) => unjudged(`x.${w}${j}.y`, { reason: `inconclusive: premise ${w} holds` })));
    const leading = leadingReasons(results);
    expect(leading.map((r) => [r.count, r.reason])).toEqual([[3, 'premise d holds'], [2, 'premise a holds'], [2, 'premise b holds']]);
    expect(leadingReasons([...results].reverse())).toEqual(leading);
  });

  test('the judging of a cell: the must-checks it rests on, judged, not judged by kind, the reasons; every check when it has no must-check', () => {
    const j = judgingOf(sampleRecord().results);
    expect(j).toMatchObject({ scope: 'must-check', total: 6, judged: 3, notJudged: { 'not-applicable': 1, unsupported: 1, error: 1 } });
    expect(j.reasons.map((r) => r.kind)).toEqual(['not-applicable', 'unsupported', 'error']);
    const advisoryOnly = judgingOf(sampleRecord().results.filter((r) => r.severity !== 'must'));
    expect(advisoryOnly).toMatchObject({ scope: 'check', total: 3, judged: 3, notJudged: {}, reasons: [] });
  });
});

describe('the outcome line says why it could not judge', () => {
  const passing = (extra: CheckResult[], model = 'svc-v4-flash') => {
    const r = cleanRecord();
    return withResults({ ...r, model }, [...r.results.map((x) => ({ ...x, model })), ...extra]);
  };

  test('a PASS names the leading reasons under their kind, largest first, each cut to one line\'s share', () => {
    const long = (i: number) => unjudged(`x.long${i}.y`, { skipKind: 'not-applicable', reason: `needs a key whose balance cannot cover a request and ${'a little more '.repeat(7)}` });
    const record = passing([...Array.from({ length: 18 }, (_, i) => noMessage(i)), long(1), long(2)]);
    const c = cellGate(record);
    expect(c.outcome).toBe('pass');
    expect(c.reason).toBe(
      `${c.judged} of 26 must-checks judged, and every one held; not judged: 18 inconclusive (the answers carried no message), 3 not-applicable (2: needs a key whose balance cannot cover a request and a little more a little mor…; 1: excluded by --only response.*), 1 unsupported`,
    );
    // the data keeps more of it, and the check it was handed to
    expect(c.judging.reasons).toEqual([
      { kind: 'inconclusive', count: 18, reason: 'the answers carried no message', handedTo: SCHEMA },
      { kind: 'not-applicable', count: 2, reason: `needs a key whose balance cannot cover a request and ${'a little more '.repeat(7).trim()}` },
      { kind: 'not-applicable', count: 1, reason: 'excluded by --only response.*' },
    ]);
  });

  test('the exit code is the same as without the reasons: a PASS passes, a FAIL fails', () => {
    expect(gate([passing([noMessage(1)])]).exitCode).toBe(0);
    expect(gate([withResults(sampleRecord(), [...sampleRecord().results, noMessage(1)])]).exitCode).toBe(1);
  });

  test('a kind whose one reason covers it all says it without the count; a run of several cells groups the same premise across them', () => {
    const d = gate([passing([noMessage(1), noMessage(2)]), passing([noMessage(1, 'svc-v4-pro')], 'svc-v4-pro')]);
    expect(d.outcome).toBe('pass');
    expect(d.reason).toMatch(/^every cell passed: \d+ must-checks judged across 2 cells, and every one held; not judged: 3 inconclusive \(the answers carried no message\), 2 not-applicable \(excluded by --only response\.\*\), 2 unsupported \(the target answered 404 with a well-formed error for POST \/beta\/completions\)$/);
  });

  test('NOTHING JUDGED says why too', () => {
    const r = cleanRecord();
    const blocked = withResults(r, r.results.map((x) => (x.severity === 'must' ? { ...headOf(x), verdict: 'skip' as const, skipKind: 'blocked' as const, reason: 'blocked by endpoint.chat.served: the endpoint answered HTTP 404: not served' } : x)));
    expect(cellGate(blocked).reason).toBe('no must-check was judged: 6 blocked (the endpoint answered HTTP 404) of 6 must-checks');
  });

  test('the words, from the data alone', () => {
    expect(notJudgedWords({ notJudged: {}, reasons: [] })).toBe('none ran');
    expect(notJudgedWords({ notJudged: { error: 2, inconclusive: 1 }, reasons: [{ kind: 'error', count: 1, reason: 'HARNESS_RESET: reset' }] })).toBe('2 errors (1: HARNESS_RESET: reset), 1 inconclusive');
  });
});
