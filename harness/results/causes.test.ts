import { upgradedResult } from './upgradeResult.ts';
import { headOf } from '#harness/core/outcome.ts';
import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult, Failure } from '#harness/core/outcome.ts';
import { causeKey, causesOf, firstFailureOf } from './causes.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';

const result = (checkId: string, model: string, failures: Failure[], severity: CheckResult['severity'] = 'must'): CheckResult => resultOf({
  checkId, title: checkId, area: checkId.split('.')[0]!, severity, specRefs: [], model, verdict: 'fail', durationMs: 1, failures,
});

const status = (statement: string, expected: string, got: number): Failure => ({ message: `${statement}: expected HTTP ${expected}, got ${got}`, defect: { kind: 'status', expected, got } });
const schema = (statement: string, path: string, what: string): Failure => ({ message: `${statement}${path}: ${what}`, path, defect: { kind: 'schema', path, keyword: 'type', what } });
const value = (what: string): Failure => ({ message: what, defect: { kind: 'value', what } });
const client = (name: string, what: string, said: string): Failure => ({ message: `breaks ${name}: ${what} — ${said}`, defect: { kind: 'client', client: name.split('@')[0]!, version: name.split('@')[1]!, what } });

describe('causes', () => {
  test('one defect seen by many checks and models is one cause, listing them', () => {
    const causes = causesOf([
      result('rule.chat.messages.non-empty', 'm1', [schema('`messages` must be non-empty: refused with 400, but the envelope is not well-formed: ', '/error/type', 'must be string')]),
      result('rule.fim.thinking', 'm1', [schema('FIM with thinking fails with 422.: refused with 422, but the envelope is not well-formed: ', '/error/type', 'must be string')]),
      result('schema.error-envelope.matches-schema', 'm2', [schema('', '/error/type', 'must be string')]),
      result('usage.total.equals-prompt-plus-completion', 'm1', [value('the completion: prompt_tokens 6 + completion_tokens 9 = 15, but total_tokens is 76')]),
      result('usage.total.equals-prompt-plus-completion', 'm2', [value('the completion: prompt_tokens 7 + completion_tokens 3 = 10, but total_tokens is 70')]),
      result('schema.chat-completion.matches-stated-shapes', 'm1', [{ message: '/id: must match pattern', path: '/id', defect: { kind: 'schema', path: '/id', keyword: 'pattern', what: 'must match pattern' } }], 'should'),
    ]);
    expect(causes.map((c) => [c.severity, c.failures, c.affected.length])).toEqual([['must', 3, 3], ['must', 2, 2], ['should', 1, 1]]);
    expect(causes[0]!.affected).toEqual([{ checkId: 'rule.chat.messages.non-empty', model: 'm1' }, { checkId: 'rule.fim.thinking', model: 'm1' }, { checkId: 'schema.error-envelope.matches-schema', model: 'm2' }]);
    expect([causes[0]!.message, causes[0]!.headline]).toEqual(['/error/type: must be string', '/error/type: must be string']);
  });

  test('clients broken the same way by one kind of answer are one cause naming every client; their own words stay with each check', () => {
    const lost = (name: string, words: string) => client(name, 'the service\'s message "`messages` must be a non-empty array" is lost', `the client says "${words}"`);
    const results = [
      result('client.openai.error', 'm1', [lost('openai@6.49.0', '400 status code (no body)')], 'advisory'),
      result('client.langchain.error', 'm1', [lost('langchain@1.5.8', '400 status code (no body)')], 'advisory'),
      result('client.ai-sdk.error', 'm1', [lost('ai-sdk@6.0.325', 'Bad Request')], 'advisory'),
      result('client.openai.stream', 'm1', [client('openai@6.49.0', 'it throws on a stream the harness read to its end', 'Error: missing role for choice 0')], 'advisory'),
    ];
    const causes = causesOf(results);
    expect(causes.map((c) => [c.message, c.affected.length])).toEqual([
      ['breaks openai@6.49.0, langchain@1.5.8 and ai-sdk@6.0.325: the service\'s message "`messages` must be a non-empty array" is lost', 3],
      ['breaks openai@6.49.0: it throws on a stream the harness read to its end — Error: missing role for choice 0', 1],
    ]);
    expect(causes[1]!.headline).toBe('breaks openai@6.49.0: it throws on a stream the harness read to its end');
    expect(firstFailureOf(causes[0]!, results)?.message).toBe(lost('openai@6.49.0', '400 status code (no body)').message);
    // A client's defect is not the same cause as a check's finding in the same words.
    expect(causeKey(lost('openai@6.49.0', 'x'))).not.toBe(causeKey(value('the service\'s message "`messages` must be a non-empty array" is lost')));
  });

  test("a flaky check's failures are causes too: what its failing runs saw", () => {
    const flaky = resultOf({ ...result('usage.total.equals-prompt-plus-completion', 'm1', [value('the completion: prompt_tokens 6 + completion_tokens 9 = 15, but total_tokens is 16')]), verdict: 'flaky' as const });
    expect(causesOf([flaky]).map((c) => [c.severity, c.failures, c.affected])).toEqual([['must', 1, [{ checkId: 'usage.total.equals-prompt-plus-completion', model: 'm1' }]]]);
  });

  test('a status mismatch is its statuses, not the rule that saw it; different statuses are different causes', () => {
    expect(causeKey(status('A rule.', '400', 200))).toBe(causeKey(status('Another rule.', '400', 200)));
    expect(causeKey(status('A rule.', '400', 200))).not.toBe(causeKey(status('A rule.', '400', 500)));
    expect(causeKey(schema('', '/3/choices/0/delta', 'must be object'))).toBe(causeKey(schema('', '/17/choices/0/delta', 'must be object')));
  });

  test('the key is computed from the facts, never from the words: the same words of different kinds are different causes', () => {
    expect(causeKey({ message: 'x: expected HTTP 400, got 200' })).not.toBe(causeKey(status('x', '400', 200)));
    // A record written before failures had a defect: its message, counts folded, as a value.
    expect(causeKey({ message: 'total_tokens is 76' })).toBe(causeKey({ message: 'total_tokens is 70' }));
  });

  test('a cause shared by checks of different statements is headed with the defect, not the first check\'s statement', () => {
    const r = (checkId: string, f: Failure): CheckResult => ({ checkId, title: checkId, area: 'rule', severity: 'must', specRefs: [], model: 'm', verdict: 'fail', failures: [f], durationMs: 0 });
    const [one] = causesOf([r('rule.chat.messages.non-empty', status('`messages` must be a non-empty array.', '400', 200)), r('rule.chat.required-field.missing', status('case 1 of 2: A missing required field fails with 400.', '400', 200))]);
    expect(one!.message).toBe('expected HTTP 400, got 200');
    expect(one!.affected.map((a) => a.checkId)).toEqual(['rule.chat.messages.non-empty', 'rule.chat.required-field.missing']);
    // One check alone keeps its own words.
    expect(causesOf([r('a.b.c', status('A rule.', '400', 200))])[0]!.message).toBe('A rule.: expected HTTP 400, got 200');
  });
});

describe('an error counts under its root', () => {
  const refused = { code: 'HARNESS_CONNECT', what: 'connection refused (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9' };
  test('an error citing the one that declared the endpoint unresponsive is that one cause', () => {
    const error = (checkId: string, reason: string, cause: NonNullable<CheckResult['cause']>): CheckResult => ({ ...headOf(sampleRecord().results[0]!), checkId, verdict: 'error', reason, cause });
    const causes = causesOf([
      error('a', 'HARNESS_CONNECT: … — POST http://127.0.0.1:9/chat/completions', refused),
      error('b', 'HARNESS_UNRESPONSIVE: abandoned: …', { ...refused, declared: { route: 'endpoint', grounds: 'two routes got no answer' } }),
      error('c', 'HARNESS_UNRESPONSIVE: not sent: …', { ...refused, declared: { route: 'POST /chat/completions', grounds: '3 requests in a row got no answer' } }),
    ]);
    expect(causes.map((c) => [c.message, c.code, c.failures])).toEqual([[`${refused.code}: ${refused.what}`, 'HARNESS_CONNECT', 3]]);
  });

  test('an error of a record written before errors had a cause is its reason', () => {
    // As written before errors had a typed cause, read as every record is (results/upgradeResult.ts).
    const error = upgradedResult({ ...headOf(sampleRecord().results[0]!), verdict: 'error', reason: 'the check threw: TypeError: x is undefined' });
    expect(causesOf([error]).map((c) => c.message)).toEqual(['the check threw: TypeError: x is undefined']);
  });
});
