import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { causeKey, causesOf, firstFailureOf, rootOfError } from './causes.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';

const result = (checkId: string, model: string, messages: string[], severity: CheckResult['severity'] = 'must'): CheckResult => ({
  checkId, title: checkId, area: checkId.split('.')[0]!, severity, specRefs: [], model, verdict: 'fail', durationMs: 1, failures: messages.map((message) => ({ message })),
});

describe('causes', () => {
  test('one defect seen by many checks and models is one cause, listing them', () => {
    const causes = causesOf([
      result('rule.chat.messages.non-empty', 'm1', ['`messages` must be non-empty: refused with 400, but the envelope is not well-formed: /error/type: must be string — POST http://x/chat/completions']),
      result('rule.fim.thinking', 'm1', ['FIM with thinking fails with 422.: refused with 422, but the envelope is not well-formed: /error/type: must be string — POST http://x/beta/completions']),
      result('schema.error-envelope.matches-schema', 'm2', ['/error/type: must be string']),
      result('usage.total.equals-prompt-plus-completion', 'm1', ['the completion: prompt_tokens 6 + completion_tokens 9 = 15, but total_tokens is 76']),
      result('usage.total.equals-prompt-plus-completion', 'm2', ['the completion: prompt_tokens 7 + completion_tokens 3 = 10, but total_tokens is 70']),
      result('schema.chat-completion.matches-stated-shapes', 'm1', ['/id: must match pattern'], 'should'),
    ]);
    expect(causes.map((c) => [c.severity, c.failures, c.affected.length])).toEqual([['must', 3, 3], ['must', 2, 2], ['should', 1, 1]]);
    expect(causes[0]!.affected).toEqual([{ checkId: 'rule.chat.messages.non-empty', model: 'm1' }, { checkId: 'rule.fim.thinking', model: 'm1' }, { checkId: 'schema.error-envelope.matches-schema', model: 'm2' }]);
  });

  test('clients broken the same way by one kind of answer are one cause naming every client; their own words stay with each check', () => {
    const lost = (client: string, words: string) => `breaks ${client}: the service's message "\`messages\` must be a non-empty array" is lost — the client says "${words}"`;
    const results = [
      result('client.openai.error', 'm1', [lost('openai@6.49.0', '400 status code (no body)')], 'advisory'),
      result('client.langchain.error', 'm1', [lost('langchain@1.5.8', '400 status code (no body)')], 'advisory'),
      result('client.ai-sdk.error', 'm1', [lost('ai-sdk@6.0.325', 'Bad Request')], 'advisory'),
      result('client.openai.stream', 'm1', ['breaks openai@6.49.0: it throws on a stream the harness read to its end — Error: missing role for choice 0'], 'advisory'),
    ];
    const causes = causesOf(results);
    expect(causes.map((c) => [c.message, c.affected.length])).toEqual([
      ['breaks openai@6.49.0, langchain@1.5.8 and ai-sdk@6.0.325: the service\'s message "`messages` must be a non-empty array" is lost', 3],
      ['breaks openai@6.49.0: it throws on a stream the harness read to its end — Error: missing role for choice 0', 1],
    ]);
    expect(firstFailureOf(causes[0]!, results)?.message).toBe(lost('openai@6.49.0', '400 status code (no body)'));
    expect(causeKey(lost('openai@6.49.0', 'x'))).not.toBe(causeKey('the service\'s message "`messages` must be a non-empty array" is lost'));
  });

  test("a flaky check's failures are causes too: what its failing runs saw", () => {
    const flaky = { ...result('usage.total.equals-prompt-plus-completion', 'm1', ['the completion: prompt_tokens 6 + completion_tokens 9 = 15, but total_tokens is 16']), verdict: 'flaky' as const };
    expect(causesOf([flaky]).map((c) => [c.severity, c.failures, c.affected])).toEqual([['must', 1, [{ checkId: 'usage.total.equals-prompt-plus-completion', model: 'm1' }]]]);
  });

  test('a status mismatch is its statuses, not the rule that saw it; different statuses are different causes', () => {
    expect(causeKey('A rule.: expected HTTP 400, got 200 — POST http://x/a')).toBe(causeKey('Another rule.: expected HTTP 400, got 200'));
    expect(causeKey('A rule.: expected HTTP 400, got 200')).not.toBe(causeKey('A rule.: expected HTTP 400, got 500'));
    expect(causeKey('/3/choices/0/delta: must be object')).toBe(causeKey('/17/choices/0/delta: must be object'));
  });

  test('a cause shared by checks of different statements is headed with the defect, not the first check\'s statement', () => {
    const r = (checkId: string, message: string): CheckResult => ({ checkId, title: checkId, area: 'rule', severity: 'must', specRefs: [], model: 'm', verdict: 'fail', failures: [{ message }], durationMs: 0 });
    const [one] = causesOf([r('rule.chat.messages.non-empty', '`messages` must be a non-empty array.: expected HTTP 400, got 200 — POST http://x/chat/completions'), r('rule.chat.required-field.missing', 'case 1 of 2: A missing required field fails with 400.: expected HTTP 400, got 200')]);
    expect(one!.message).toBe('expected HTTP 400, got 200');
    expect(one!.affected.map((a) => a.checkId)).toEqual(['rule.chat.messages.non-empty', 'rule.chat.required-field.missing']);
    // One check alone keeps its own words.
    expect(causesOf([r('a.b.c', 'A rule.: expected HTTP 400, got 200')])[0]!.message).toBe('A rule.: expected HTTP 400, got 200');
  });
});

describe('an error counts under its root', () => {
  const refused = 'HARNESS_CONNECT: connection refused (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9';
  test('an error citing the one that declared the endpoint unresponsive is that one cause', () => {
    const error = (checkId: string, reason: string): CheckResult => ({ ...sampleRecord().results[0]!, checkId, verdict: 'error', reason });
    const causes = causesOf([
      error('a', `${refused} — POST http://127.0.0.1:9/chat/completions`),
      error('b', `HARNESS_UNRESPONSIVE: abandoned: the endpoint was declared unresponsive: a request got no answer (${refused} — GET http://127.0.0.1:9/models), and a probe of http://127.0.0.1:9/ got none within 10000 ms either — POST http://127.0.0.1:9/chat/completions`),
      error('c', `HARNESS_UNRESPONSIVE: not sent: the endpoint was declared unresponsive: a request got no answer (${refused} — GET http://127.0.0.1:9/models), and a probe got none — GET http://127.0.0.1:9/models`),
    ]);
    expect(causes.map((c) => [c.message, c.failures])).toEqual([[refused, 3]]);
  });

  test('a reason without a harness error is its own root', () => {
    expect(rootOfError('the check threw: TypeError: x is undefined')).toBe('the check threw: TypeError: x is undefined');
  });
});
