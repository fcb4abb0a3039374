import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult, Verdict } from '#harness/core/outcome.ts';
import { mergeRepetitions } from './mergeRepetitions.ts';

const head = { checkId: 'usage.total.equals-prompt-plus-completion', title: 'sum', area: 'usage', severity: 'must' as const, specRefs: ['meanings.x'], model: 'svc-v4-flash' };

/** One run's result of the check above; a fail carries a failure naming its run. */
function run(verdict: Verdict, n: number, extra: Partial<CheckResult> = {}): CheckResult {
  return resultOf({
    ...head,
    verdict,
    durationMs: 10,
    tokens: { promptTokens: 5, completionTokens: 7, cacheHitTokens: 1 },
    ...(verdict === 'fail' ? { failures: [{ message: `run ${n}: total_tokens is off by one` }] } : {}),
    ...(verdict === 'skip' || verdict === 'error' || verdict === 'unsupported' ? { reason: `run ${n}: ${verdict}` } : {}),
    ...extra,
  });
}

const merged = (...verdicts: Verdict[]) => mergeRepetitions(verdicts.map((v, i) => [run(v, i + 1)]))[0]!;

describe('mergeRepetitions', () => {
  test('every run agrees: that verdict, the first run evidence, tokens and time added up, and the repeat figures', () => {
    const m = merged('fail', 'fail', 'fail');
    expect(m).toMatchObject({ verdict: 'fail', failures: [{ message: 'run 1: total_tokens is off by one' }], durationMs: 30, tokens: { promptTokens: 15, completionTokens: 21, cacheHitTokens: 3 } });
    expect(m.repeat).toEqual({ runs: 3, passes: 0, fails: 3, passAtK: { '1': 0, '2': 0, '3': 0 }, passHatK: { '1': 0, '2': 0, '3': 0 } });
    expect(merged('pass', 'pass', 'pass')).toMatchObject({ verdict: 'pass', repeat: { passes: 3, fails: 0, passAtK: { '3': 1 }, passHatK: { '3': 1 } } });
    expect(merged('pass', 'pass', 'pass').failures).toBeUndefined();
  });

  test('a pass and a fail: flaky, with the failures of every failing run and how many passed', () => {
    const m = merged('pass', 'fail', 'pass');
    expect(m).toMatchObject({ verdict: 'flaky', reason: 'flaky: 2 of 3 runs passed', failures: [{ message: 'run 2: total_tokens is off by one' }] });
    expect(m.repeat).toEqual({ runs: 3, passes: 2, fails: 1, passAtK: { '1': 0.6667, '2': 1, '3': 1 }, passHatK: { '1': 0.6667, '2': 0.3333, '3': 0 } });
    const twice = merged('fail', 'pass', 'fail', 'skip');
    expect(twice.failures?.map((f) => f.message)).toEqual(['run 1: total_tokens is off by one', 'run 3: total_tokens is off by one']);
    expect(twice.reason).toBe('flaky: 1 of 3 runs passed (1 more run judged nothing: skip)');
    expect(twice.repeat).toMatchObject({ runs: 4, passes: 1, fails: 2 });
  });

  test('other mixes: fail beats error and skip, error beats pass, pass beats skip and unsupported; only passes and fails are counted', () => {
    expect(merged('error', 'fail', 'skip')).toMatchObject({ verdict: 'fail', failures: [{ message: 'run 2: total_tokens is off by one' }], repeat: { passes: 0, fails: 1 } });
    expect(merged('pass', 'error', 'pass')).toMatchObject({ verdict: 'error', reason: 'run 2: error', repeat: { runs: 3, passes: 2, fails: 0 } });
    const passSkip = merged('skip', 'pass', 'pass');
    expect(passSkip).toMatchObject({ verdict: 'pass', repeat: { runs: 3, passes: 2, fails: 0, passAtK: { '1': 1, '2': 1 } } });
    expect(passSkip.reason).toBeUndefined();
    expect(passSkip.repeat?.passAtK['3']).toBeUndefined();
    expect(merged('unsupported', 'pass')).toMatchObject({ verdict: 'pass' });
    expect(merged('skip', 'unsupported', 'skip')).toMatchObject({ verdict: 'unsupported', reason: 'run 2: unsupported', repeat: { passes: 0, fails: 0, passAtK: {} } });
  });

  test('pairs keep the order they first appear in; a pair a repetition did not run counts only the runs it had', () => {
    const other = { ...head, checkId: 'schema.chat-completion.matches-schema' };
    const out = mergeRepetitions([[run('pass', 1)], [run('pass', 2), { ...run('fail', 2), ...other }], [run('pass', 3), { ...run('pass', 3), ...other }]]);
    expect(out.map((r) => `${r.checkId} ${r.verdict} ${r.repeat?.runs}`)).toEqual(['usage.total.equals-prompt-plus-completion pass 3', 'schema.chat-completion.matches-schema flaky 2']);
  });

  test('one repetition: the results as they were, without repeat figures', () => {
    const once = [run('fail', 1), { ...run('pass', 1), model: 'svc-v4-pro' }];
    expect(mergeRepetitions([once])).toEqual(once);
  });
});
