import { describe, expect, test } from 'vitest';
import { validatorFor } from '#harness/derive/validators/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { handOffOnModel, NAMED_FORCES_FUNCTION, schemaCheckOf, shapeHandOff } from './handoff.ts';
import { failure } from './outcome.ts';

/*
 * shapeHandOff hands a missing part of an answer to the schema check only where the schema breaks on
 * that part (or above it). Found on llama-server and Portkey's deepseek provider: a forced tool call
 * answered with text, in a body whose usage lacks prompt_cache_hit_tokens, was handed to the schema
 * check for the usage field, where the missing call is named-forces-function's defect.
 */
const { spec } = loadSpec();
const model = Object.entries(spec.models).find(([, m]) => m.kind === 'current')![0];
const ctx = { spec, judge: (name: string, body: unknown) => validatorFor(spec, name, { profile: 'default' })(body) } as unknown as CheckContext;
const res = { status: 200, headers: {}, exchange: { request: { method: 'POST', url: 'http://x/chat/completions', headers: {} }, attempts: 1 } } as unknown as CheckResponse;

const completion = (usage: Record<string, number>) => ({
  id: '3f0e5a8c-1b2d-4c3e-9f4a-5b6c7d8e9f01',
  object: 'chat.completion',
  created: 1_700_000_000,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: 'no call here' }, logprobs: null, finish_reason: 'stop' }],
  usage,
  system_fingerprint: 'fp',
});
const WHOLE_USAGE = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 3 };
const WHAT = 'the answer holds no tool call';
const owners = (o: CheckOutcome) => (o.verdict === 'fail' ? o.failures.map((f) => f.ownedBy) : [o.verdict]);
const noCall = (body: unknown) => shapeHandOff(ctx, 'chat_completion', res, body, WHAT, '/choices/0/message/tool_calls', handOffOnModel(NAMED_FORCES_FUNCTION, failure(WHAT, res)));

describe('shapeHandOff hands a missing part to the schema check only where the schema breaks on it', () => {
  test('a well-formed answer without the call: the rule that forces it owns the defect', () => {
    expect(ctx.judge('chat_completion', completion(WHOLE_USAGE)).filter((v) => v.level === 'must')).toEqual([]);
    expect(owners(noCall(completion(WHOLE_USAGE)))).toEqual([NAMED_FORCES_FUNCTION]);
  });

  test('a must break elsewhere (usage without a required field) is not why the call is missing', () => {
    const { prompt_cache_hit_tokens: _dropped, ...lacking } = WHOLE_USAGE;
    expect(ctx.judge('chat_completion', completion(lacking)).some((v) => v.level === 'must')).toBe(true);
    expect(owners(noCall(completion(lacking)))).toEqual([NAMED_FORCES_FUNCTION]);
  });

  test('a break above the part (no choices at all) is the schema check\u2019s', () => {
    const { choices: _none, ...body } = completion(WHOLE_USAGE);
    expect(owners(noCall(body))).toEqual([schemaCheckOf('chat_completion')]);
  });

  test('without a path, any must break is the schema check\u2019s, as before', () => {
    const { prompt_cache_hit_tokens: _dropped, ...lacking } = WHOLE_USAGE;
    expect(owners(shapeHandOff(ctx, 'chat_completion', res, completion(lacking), WHAT))).toEqual([schemaCheckOf('chat_completion')]);
  });
});
