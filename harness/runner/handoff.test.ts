import { expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult, Failure } from '#harness/core/outcome.ts';
import type { Exchange } from '#harness/core/exchange.ts';
import { settleHandoffs } from './handoff.ts';

const exchange = (body: unknown): Exchange => ({ request: { method: 'POST', url: 'http://h/chat/completions', headers: {}, body }, response: { status: 200, headers: {}, body: { choices: [] }, durationMs: 1 }, attempts: 1 });

const result = (checkId: string, verdict: CheckResult['verdict'], failures: Failure[] = [], model = 'm'): CheckResult => resultOf({
  checkId, title: checkId, area: checkId.split('.')[0]!, severity: 'must', specRefs: [], model, verdict, durationMs: 1,
  ...(verdict === 'fail' ? { failures } : {}),
});

const refused: Failure = { message: 'the request was refused (HTTP 400) because of `stop`' };

test('a failure another check owns on the model is inconclusive where that check fails too on the same model, and stands where it does not', () => {
  const OWNER = 'request.stop.accepted-within-bounds';
  const [owned, , elsewhere, own, alone] = settleHandoffs([
    result('rule.chat.stop.not-in-output', 'fail', [{ ...refused, ownedBy: OWNER }]),
    result(OWNER, 'fail', [{ message: 'refused' }]),
    result('rule.chat.stop.not-in-output', 'fail', [{ ...refused, ownedBy: OWNER }], 'other'),
    result('rule.x', 'fail', [refused]),
    result('stream.assembled.honours-stop', 'fail', [{ ...refused, ownedBy: 'request.nothing.accepted-within-bounds' }]),
  ]);
  expect([owned!.verdict, owned!.skipKind, owned!.failures]).toEqual(['skip', 'inconclusive', undefined]);
  expect(owned!.reason).toBe(`inconclusive: the request was refused (HTTP 400) because of \`stop\`; ${OWNER} fails on it: one defect, reported there`);
  expect(owned!.handedTo).toEqual([{ check: OWNER, defect: refused.message }]);
  // The owner on another model passed (or was not run): this failure is the only report of the defect there.
  expect(elsewhere!.verdict).toBe('fail');
  expect(own!.verdict).toBe('fail');
  expect(alone!.verdict).toBe('fail');
});

test('a defect handed on its answer stands where the owner failed on that answer or with the same defect, and is the check\'s own failure where it did not', () => {
  const SCHEMA = 'schema.chat-completion.matches-schema';
  const noChoice: Failure = { message: '/choices: must NOT have fewer than 1 items', defect: { kind: 'schema', path: '/choices', keyword: 'minItems', what: 'must NOT have fewer than 1 items' } };
  const handed = (body: unknown): Failure => ({ ...noChoice, message: `no message: ${noChoice.message}`, ownedBy: SCHEMA, ownedOn: 'answer', evidence: exchange(body) });
  const sameDefect = settleHandoffs([result('rule.a', 'fail', [handed({ n: 1 })]), result(SCHEMA, 'fail', [{ ...noChoice, evidence: exchange({ n: 2 }) }])]);
  expect(sameDefect[0]).toMatchObject({ verdict: 'skip', skipKind: 'inconclusive', handedTo: [{ check: SCHEMA, request: 'POST http://h/chat/completions', defect: '/choices: must NOT have fewer than 1 items' }] });
  // The owner failed, but on another answer and for another defect: nothing reports this one.
  const other = settleHandoffs([result('rule.a', 'fail', [handed({ n: 1 })]), result(SCHEMA, 'fail', [{ message: 'x', defect: { kind: 'value', what: 'x' }, evidence: exchange({ n: 2 }) }])]);
  expect(other[0]!.verdict).toBe('fail');
  // ...but the same answer it failed on, for whatever defect, stands.
  const sameAnswer = settleHandoffs([result('rule.a', 'fail', [handed({ n: 1 })]), result(SCHEMA, 'fail', [{ message: 'x', defect: { kind: 'value', what: 'x' }, evidence: exchange({ n: 1 }) }])]);
  expect(sameAnswer[0]!.verdict).toBe('skip');
  // The owner passed: the hand-off becomes this check's failure, its evidence kept.
  const passed = settleHandoffs([result('rule.a', 'fail', [handed({ n: 1 })]), result(SCHEMA, 'pass')]);
  expect(passed[0]).toMatchObject({ verdict: 'fail', failures: [{ ownedBy: SCHEMA, evidence: { request: { body: { n: 1 } } } }] });
});

test('a route-level block stands where its served check failed on any model of the run, as blocked', () => {
  const SERVED = 'endpoint.fim-completions-on-beta.served';
  const blocked: Failure = { message: `blocked by ${SERVED}: answered 404`, ownedBy: SERVED, ownedOn: 'run' };
  const [settled] = settleHandoffs([result('fim.x.y', 'fail', [blocked], 'flash'), result(SERVED, 'fail', [{ message: 'not served' }], 'pro')]);
  expect(settled).toMatchObject({ verdict: 'skip', skipKind: 'blocked', reason: blocked.message, handedTo: [{ check: SERVED }] });
  expect(settleHandoffs([result('fim.x.y', 'fail', [blocked], 'flash')])[0]!.verdict).toBe('fail');
});

test("a rule's streamed twin failing settles a hand-off to the rule, on the same model", () => {
  const RULE = 'rule.chat.tool-choice.required-forces-call';
  const noCall: Failure = { message: 'the reply calls no tool although tool_choice is "required"', ownedBy: RULE };
  const [twin] = settleHandoffs([result('answer.tool-call.names-an-offered-function', 'fail', [noCall]), result(RULE, 'skip'), result(`${RULE}.streamed`, 'fail', [{ message: 'no call' }])]);
  expect(twin).toMatchObject({ verdict: 'skip', skipKind: 'inconclusive', handedTo: [{ check: RULE }] });
  // Neither failed (the rule was inconclusive, its twin passed): nothing reports the missing call but this check.
  const [alone] = settleHandoffs([result('answer.tool-call.names-an-offered-function', 'fail', [noCall]), result(RULE, 'skip'), result(`${RULE}.streamed`, 'pass')]);
  expect(alone!.verdict).toBe('fail');
});

test('a chain of hand-offs stands where its end failed: an owner that handed the defect on failed on it too', () => {
  const [first, second] = settleHandoffs([
    result('client.anthropic.stream', 'fail', [{ message: 'HTTP 500', ownedBy: 'messages.stream.events-in-format-order', ownedOn: 'answer', evidence: exchange({ s: 1 }) }]),
    result('messages.stream.events-in-format-order', 'fail', [{ message: 'HTTP 500', ownedBy: 'schema.messages-response.matches-schema', ownedOn: 'answer', defect: { kind: 'status', expected: '200', got: 500 }, evidence: exchange({ s: 1 }) }]),
    result('schema.messages-response.matches-schema', 'fail', [{ message: 'expected a success', defect: { kind: 'status', expected: '200', got: 500 }, evidence: exchange({ s: 2 }) }]),
  ]);
  expect([first!.verdict, second!.verdict]).toEqual(['skip', 'skip']);
});
