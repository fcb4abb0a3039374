import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import { createCheckContext, type Sender } from '#harness/runner/checkContext.ts';
import { dryRunConfig } from '#harness/runner/spend/estimate.ts';
import type { CheckResponse } from '../context.ts';
import { answerJudge } from './conformance.ts';

/**
 * The judge the load phase holds each answer to adds usage up as the usage checks at rest do: by
 * the sums of meanings.yaml, so a sum changed there is the sum judged under load, with no arithmetic
 * of its own.
 */
const { spec } = loadSpec();
const unused: Sender = { send: () => Promise.reject(new Error('no request is sent in these tests')) };
const judgeOf = (s: Spec) => answerJudge(createCheckContext(s, dryRunConfig(['svc-v4-flash'], new Date('2026-01-01T00:00:00Z')), unused, 'svc-v4-flash'));
const res: CheckResponse = { status: 200, headers: {}, exchange: { request: { method: 'POST', url: 'http://x/chat/completions', headers: {} }, attempts: 1 }, text: async () => '', json: async () => ({}), events: async function* () {} };
const body = (usage: Record<string, number>) => ({ id: 'c1', object: 'chat.completion', created: 1767225600, model: 'svc-v4-flash', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage });
const sumRules = async (s: Spec, usage: Record<string, number>) => (await judgeOf(s).body(res, body(usage))).filter((b) => b.rule.startsWith('meanings.')).map((b) => `${b.rule}: ${b.message}`);

describe('answerJudge: usage sums from meanings.yaml', () => {
  test('a total that is not the sum of its parts breaks the meaning that says so; one that is, none', async () => {
    expect(await sumRules(spec, { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 })).toEqual([]);
    expect(await sumRules(spec, { prompt_tokens: 5, completion_tokens: 3, total_tokens: 9 })).toEqual(['meanings.usage-total-is-sum: /usage: prompt_tokens 5 + completion_tokens 3 = 8, but total_tokens is 9']);
  });

  test('the sum judged is the one the spec declares: with completion_tokens dropped from its parts, 5 + 3 = 8 breaks it', async () => {
    const changed = structuredClone(spec);
    const sum = changed.meanings['usage-total-is-sum']!.sum!;
    sum.parts = sum.parts.filter((p) => p !== 'completion_tokens');
    expect(await sumRules(changed, { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 })).toEqual(['meanings.usage-total-is-sum: /usage: prompt_tokens 5 = 5, but total_tokens is 8']);
  });
});
