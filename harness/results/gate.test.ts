import { headOf } from '#harness/core/outcome.ts';
import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { SAMPLE_BASE_URL, sampleFlakyResult, sampleRecord } from '#harness/testing/sampleRecord.ts';
import { cleanRecord, skippedRecord, withResults } from '#harness/testing/outcomeRecords.ts';
import { withBaseline } from './baseline.ts';
import { diffRecords } from './diffRecords.ts';
import { cellGate, gate, withPolicy } from './gate.ts';
import type { RunRecord } from './runRecord.ts';

function recordOf(results: CheckResult[], baseUrl = SAMPLE_BASE_URL): RunRecord {
  const r = sampleRecord();
  return withResults({ ...r, target: { ...r.target, baseUrl } }, results);
}

const only = (pred: (r: CheckResult) => boolean) => recordOf(sampleRecord().results.filter(pred));
const strictly = (r: RunRecord) => withPolicy([r], { strict: true });
const exitOf = (records: RunRecord[]) => gate(records).exitCode;
const gatingIds = (r: RunRecord) => cellGate(r).gating.map((x) => `${x.checkId} ${x.verdict}`);

describe('the gate', () => {
  test('a failing must-check fails the run', () => {
    expect(exitOf([sampleRecord()])).toBe(1);
    expect(gatingIds(sampleRecord())).toEqual(['request.temperature.rejects-out-of-range fail', 'stream.framing.ends-with-done fail', 'lifecycle.alias.retires-on-time error']);
  });

  test('a failing should-check fails the run only with strict; advisory never does', () => {
    const should = only((r) => r.verdict !== 'error' && (r.verdict !== 'fail' || r.severity !== 'must'));
    expect(exitOf([should])).toBe(0);
    expect(exitOf(strictly(should))).toBe(1);
    expect(cellGate(strictly(should)[0]!).gating.map((f) => f.severity)).toEqual(['should']);
    const advisory = only((r) => r.verdict !== 'error' && (r.verdict !== 'fail' || r.severity === 'advisory'));
    expect(exitOf(strictly(advisory))).toBe(0);
    expect(cellGate(advisory).tolerated.map((r) => r.severity)).toEqual(['advisory']);
  });

  test('an error counts as a failure at its severity: a must-check that could not be judged fails the run', () => {
    const errors = recordOf([...cleanRecord().results, ...sampleRecord().results.filter((r) => r.verdict === 'error').map((r) => ({ ...r, checkId: `${r.checkId}.again` }))]);
    expect(exitOf([errors])).toBe(1);
    const asShould = recordOf(errors.results.map((r) => (r.verdict === 'error' ? { ...r, severity: 'should' as const } : r)));
    expect(exitOf([asShould])).toBe(0);
    expect(exitOf(strictly(asShould))).toBe(1);
  });

  test('skip, unsupported and pass never fail the run; a run with no cell is not a pass', () => {
    expect(gate(strictly(only((r) => r.verdict !== 'fail' && r.verdict !== 'error')))).toMatchObject({ outcome: 'pass', exitCode: 0 });
    expect(gate([])).toMatchObject({ outcome: 'nothing-judged', exitCode: 1 });
  });

  test('one failing cell among several fails the run, and the reason names it', () => {
    const d = gate([cleanRecord(), { ...sampleRecord(), model: 'svc-v4-pro' }]);
    expect(d.outcome).toBe('fail');
    expect(d.cells.map((c) => c.outcome)).toEqual(['pass', 'fail']);
    expect(d.reason).toMatch(/^svc-v4-pro at .*: 3 checks fail the run \(2 must failures, 1 error\)$/);
  });

  test('several passing cells: the headline counts what it says it counts, the must-checks judged', () => {
    const cells = [cleanRecord(), { ...cleanRecord(), model: 'svc-v4-pro' }];
    const must = cells.flatMap((c) => c.results).filter((r) => r.severity === 'must' && r.verdict === 'pass').length;
    expect(cells.flatMap((c) => c.results).filter((r) => r.verdict === 'pass').length).toBeGreaterThan(must);
    // and why the rest were not judged, one premise on two cells being one reason
    expect(gate(cells).reason).toBe(`every cell passed: ${must} must-checks judged across 2 cells, and every one held; not judged: 2 not-applicable (excluded by --only response.*), 2 unsupported (the target answered 404 with a well-formed error for POST /beta/completions)`);
  });

  test('nothing judged: no must-check judged is not a pass, whatever else passed', () => {
    const noMust = recordOf(cleanRecord().results.map((r) => (r.severity === 'must' ? { ...headOf(r), verdict: 'skip' as const, skipKind: 'blocked' as const, reason: 'blocked by x' } : r)));
    const c = cellGate(noMust);
    expect(c.outcome).toBe('nothing-judged');
    expect(c.reason).toBe('no must-check was judged: 6 blocked (blocked by x) of 6 must-checks');
    // a selection of should and advisory checks only is judged on those
    const shouldOnly = recordOf(cleanRecord().results.filter((r) => r.severity !== 'must'));
    expect(cellGate(shouldOnly).outcome).toBe('pass');
    expect(cellGate(skippedRecord('budget')).reason).toMatch(/budget/);
  });

  test('a run the harness ended early (the key refused) fails, saying so first', () => {
    const ended = { ...cleanRecord(), endedEarly: { kind: 'key-refused' as const, message: 'the endpoint refused the API key' } };
    expect(cellGate(ended)).toMatchObject({ outcome: 'fail', reason: 'the endpoint refused the API key' });
  });

  test('an interrupted run is interrupted, even with failures; SIGTERM exits 143', () => {
    expect(gate([{ ...sampleRecord(), interrupted: true, interruptedBy: 'SIGINT' }])).toMatchObject({ outcome: 'interrupted', exitCode: 130 });
    expect(gate([cleanRecord(), { ...cleanRecord(), interrupted: true, interruptedBy: 'SIGTERM' }])).toMatchObject({ outcome: 'interrupted', exitCode: 143 });
  });

  test('with a baseline only regressions fail the run: checks the baseline judged and did not see failing', () => {
    const now = sampleRecord();
    // the baseline failed the same checks: known failures, no regression
    const known = withBaseline(strictly(now), [sampleRecord()], 'b.json');
    expect(gate(known)).toMatchObject({ outcome: 'pass', exitCode: 0 });
    expect(cellGate(known[0]!).known.map((r) => r.checkId)).toEqual(['request.temperature.rejects-out-of-range', 'stream.framing.ends-with-done', 'response.id.has-chatcmpl-prefix', 'lifecycle.alias.retires-on-time']);
    // the baseline ran only one check, and it passed there: that one is the regression
    const partial = recordOf(now.results.filter((r) => r.checkId === 'stream.framing.ends-with-done').map((r) => resultOf({ ...r, verdict: 'pass' as const, failures: [] })));
    expect(gatingIds(withBaseline([now], [partial], 'b.json')[0]!)).toEqual(['stream.framing.ends-with-done fail']);
    // an embedded emulator is one target whatever port it listened on
    const passed = recordOf(now.results.map((r) => resultOf({ ...r, verdict: 'pass' as const, failures: [] })), 'http://127.0.0.1:1');
    expect(exitOf(withBaseline([now], [passed], 'b.json'))).toBe(1);
  });

  test('a baseline without the run\'s cell is refused: against it nothing could regress', () => {
    const elsewhere = { ...cleanRecord(), target: { kind: 'live' as const, baseUrl: 'http://other.test', messagesBaseUrl: 'http://other.test/anthropic' } };
    expect(() => withBaseline([sampleRecord()], [elsewhere], 'b.json')).toThrow(/--baseline b\.json holds no run of svc-v4-flash at emulator \(it holds svc-v4-flash at http:\/\/other\.test\)/);
  });

  test('a flaky check counts as a failure of its severity; with allowFlaky it is tolerated', () => {
    const flaky = (severity: CheckResult['severity']) => recordOf([...cleanRecord().results, { ...sampleFlakyResult(), severity }]);
    expect(gatingIds(flaky('must'))).toEqual(['usage.total.equals-prompt-plus-completion flaky']);
    expect(exitOf(withPolicy([flaky('must')], { allowFlaky: true }))).toBe(0);
    expect(exitOf([flaky('should')])).toBe(0);
    expect(exitOf(strictly(flaky('should')))).toBe(1);
    expect(exitOf(withPolicy([flaky('should')], { strict: true, allowFlaky: true }))).toBe(0);
    expect(exitOf(strictly(flaky('advisory')))).toBe(0);
    // allowFlaky lets flaky checks through, not failures
    expect(exitOf(withPolicy([sampleRecord()], { allowFlaky: true }))).toBe(1);
  });
});

describe('run --baseline and diff judge a change alike', () => {
  const base = cleanRecord();
  const changed = (checkId: string, verdict: CheckResult['verdict'], from = base) =>
    withResults(from, from.results.map((r) => (r.checkId === checkId ? resultOf({ ...r, verdict, ...(verdict === 'fail' ? { failures: [{ message: 'broken' }] } : { reason: 'why' }) }) : r)));

  test.each([
    ['a pass turned error', changed('response.body.matches-schema', 'error'), base, 1],
    ['a skip turned fail', changed('tools.tool-choice.required-forces-call', 'fail'), base, 1],
    ['an error turned fail', changed('response.body.matches-schema', 'fail'), changed('response.body.matches-schema', 'error'), 0],
    ['a fail turned pass', base, changed('response.body.matches-schema', 'fail'), 0],
  ] as const)('%s', (_name, now, before, exit) => {
    expect(gate(withBaseline([now], [before], 'b.json')).exitCode).toBe(exit);
    expect(diffRecords([before], [now]).decision.exitCode).toBe(exit);
  });

  test('a pass turned error and a skip turned fail are both newly failing', () => {
    const d = diffRecords([base], [changed('tools.tool-choice.required-forces-call', 'fail', changed('response.body.matches-schema', 'error'))]);
    expect(d.newlyFailing.map((e) => `${e.checkId} ${e.before}->${e.after}`).sort()).toEqual(['response.body.matches-schema pass->error', 'tools.tool-choice.required-forces-call skip->fail']);
  });

  test('two runs that share no cell cannot be compared', () => {
    const other = { ...base, target: { kind: 'live' as const, baseUrl: 'http://other.test', messagesBaseUrl: 'http://other.test/anthropic' } };
    expect(() => diffRecords([base], [other])).toThrow(/the two runs share no cell/);
  });
});
