import { describe, expect, it } from 'vitest';
import type { Rule, Spec } from '#harness/spec/model.ts';
import { checkRules } from './rules.ts';
import { validateRequest } from './request.ts';
import type { RequestSite } from './site.ts';
import { badRequestRow, chat, chatSite, fim, fimSite, spec, specStatus, type Body } from '#harness/testing/validateTestkit.ts';

function conversation(last: Record<string, unknown>): Record<string, unknown>[] {
  return [{ role: 'user', content: 'Write a poem' }, { role: 'assistant', ...last }];
}

describe('fill-in-the-middle rules', () => {
  it('accepts a plain FIM body, and thinking disabled or text format', () => {
    for (const body of [fim(), fim({ thinking: { type: 'disabled' } }), fim({ response_format: { type: 'text' } }), fim({ max_tokens: 4096 })]) {
      expect(validateRequest(spec, body, fimSite())).toBeUndefined();
    }
  });

  it('refuses JSON mode with the status of rule fim.json-mode (the description: 400)', () => {
    const refusal = validateRequest(spec, fim({ response_format: { type: 'json_object' } }), fimSite());
    expect(refusal?.status).toBe(specStatus('fim.json-mode'));
    expect(refusal?.status).toBe(400);
    expect(refusal?.param).toBe('response_format.type');
    expect(refusal?.message).toMatch(/JSON mode/);
  });

  it('refuses thinking enabled with the status of rule fim.thinking (the description: 422)', () => {
    const refusal = validateRequest(spec, fim({ thinking: { type: 'enabled' } }), fimSite());
    expect(refusal?.status).toBe(specStatus('fim.thinking'));
    expect(refusal?.status).toBe(422);
    expect(refusal?.param).toBe('thinking.type');
    expect(refusal?.message).toMatch(/`thinking\.type` is "enabled"/);
  });

  it('refuses a missing prompt as a missing required field', () => {
    const refusal = validateRequest(spec, fim({ prompt: undefined }), fimSite());
    expect(refusal).toMatchObject({ status: specStatus('chat.required-field.missing'), param: 'prompt' });
  });

  it('does not enforce the FIM request fields of unspecified strength (thinking.type "maybe" is not refused)', () => {
    expect(validateRequest(spec, fim({ thinking: { type: 'maybe' } }), fimSite())).toBeUndefined();
    expect(validateRequest(spec, fim({ response_format: 'json' }), fimSite())).toBeUndefined();
  });

  it('refuses FIM outside the beta base with the 400 row (the spec leaves that status open)', () => {
    const refusal = validateRequest(spec, fim(), fimSite('svc-v4-pro', 'base_url'));
    expect(refusal?.status).toBe(badRequestRow());
    expect(refusal?.message).toMatch(/beta base/);
  });
});

describe('chat prefix completion rules', () => {
  it('refuses a last assistant message without prefix on the beta base: 422, from rule prefix.without-prefix-flag', () => {
    const refusal = validateRequest(spec, chat({ messages: conversation({ content: 'Roses are' }) }), chatSite('svc-v4-flash', 'beta'));
    expect(refusal?.status).toBe(specStatus('prefix.without-prefix-flag'));
    expect(refusal?.status).toBe(422);
    expect(refusal?.param).toBe('messages.1.prefix');
  });

  it('accepts a last assistant message with prefix true on the beta base', () => {
    expect(validateRequest(spec, chat({ messages: conversation({ content: 'Roses are', prefix: true }) }), chatSite('svc-v4-flash', 'beta'))).toBeUndefined();
  });

  it.each(['base_url', 'v1'])('refuses prefix true on base %s with the 400 row (status unspecified in the spec)', (base) => {
    const rule = spec.rules.find((r) => r.id === 'prefix.requires-beta-base');
    expect(rule?.expect.status_unspecified).toBe(true);
    const refusal = validateRequest(spec, chat({ messages: conversation({ content: 'Roses are', prefix: true }) }), chatSite('svc-v4-flash', base));
    expect(refusal?.status).toBe(badRequestRow());
    expect(refusal?.param).toBe('messages.1.prefix');
  });

  it('accepts a conversation ending with an assistant turn outside the beta base (no prefix asked for)', () => {
    expect(validateRequest(spec, chat({ messages: conversation({ content: 'Hi' }) }), chatSite())).toBeUndefined();
  });

  it('refuses prefix false on the beta base too: "without `prefix` = true" covers false (also_when of prefix.without-prefix-flag)', () => {
    const refusal = validateRequest(spec, chat({ messages: conversation({ content: 'Hi', prefix: false }) }), chatSite('svc-v4-flash', 'beta'));
    expect(refusal).toMatchObject({ status: specStatus('prefix.without-prefix-flag'), param: 'messages.1.prefix' });
    expect(refusal?.status).toBe(422);
  });

  it('refuses prefix "yes" as a wrong type before any rule', () => {
    const refusal = validateRequest(spec, chat({ messages: conversation({ content: 'Hi', prefix: 'yes' }) }), chatSite('svc-v4-flash', 'beta'));
    expect(refusal).toMatchObject({ status: specStatus('chat.wrong-type'), param: 'messages.1.prefix' });
  });
});

describe('legacy reasoner rules', () => {
  const reasoner = chatSite('svc-reasoner');
  const withReasoning = conversation({ content: 'Paris.', reasoning_content: 'The capital of France is Paris.' }).concat([{ role: 'user', content: 'And Spain?' }]);

  it.each<[string, Body]>([
    ['logprobs true', chat({ logprobs: true }, 'svc-reasoner')],
    ['top_logprobs with logprobs true', chat({ logprobs: true, top_logprobs: 3 }, 'svc-reasoner')],
  ])('refuses %s with the first status of rule legacy.reasoner.logprobs-refused', (_name, body) => {
    const refusal = validateRequest(spec, body, reasoner);
    expect(refusal?.status).toBe(specStatus('legacy.reasoner.logprobs-refused'));
    expect(refusal?.param).toBe('logprobs');
    expect(refusal?.message).toMatch(/legacy reasoner/);
  });

  it('refuses top_logprobs alone (through also_when; chat.top-logprobs.requires-logprobs comes first in rules.yaml)', () => {
    const body = chat({ top_logprobs: 3 }, 'svc-reasoner');
    expect(validateRequest(spec, body, reasoner)?.status).toBe(specStatus('chat.top-logprobs.requires-logprobs'));
    const withoutTheGeneralRule: Spec = { ...spec, rules: spec.rules.filter((r) => r.id !== 'chat.top-logprobs.requires-logprobs') };
    const refusal = checkRules(withoutTheGeneralRule, body, reasoner);
    expect(refusal?.status).toBe(specStatus('legacy.reasoner.logprobs-refused'));
    expect(refusal?.param).toBe('top_logprobs');
  });

  it('refuses a message carrying reasoning_content with 400', () => {
    const refusal = validateRequest(spec, chat({ messages: withReasoning }, 'svc-reasoner'), reasoner);
    expect(refusal?.status).toBe(specStatus('legacy.reasoner.reasoning-content-in-messages'));
    expect(refusal?.status).toBe(400);
    expect(refusal?.param).toBe('messages.1.reasoning_content');
  });

  it('does not refuse reasoning_content sent to a current model (that rule binds clients; its strength is unspecified)', () => {
    expect(validateRequest(spec, chat({ messages: withReasoning }), chatSite())).toBeUndefined();
  });

  it('accepts sampling parameters on the reasoner', () => {
    const body = chat({ temperature: 0.6, top_p: 0.95, presence_penalty: 1, frequency_penalty: -1 }, 'svc-reasoner');
    expect(validateRequest(spec, body, reasoner)).toBeUndefined();
  });

  it('accepts logprobs on other models', () => {
    expect(validateRequest(spec, chat({ logprobs: true, top_logprobs: 3 }), chatSite())).toBeUndefined();
  });
});

describe('checkRules: which rules take part', () => {
  const site: RequestSite = chatSite();
  function withRules(...rules: Rule[]): Spec {
    return { ...spec, rules };
  }
  function rule(id: string, when: Rule['when'], expect: Rule['expect'], extra: Partial<Rule> = {}): Rule {
    return { id, endpoint: 'chat_completions', statement: `Rule ${id}.`, when, expect, strength: 'must', basis: 'stated', source: 'test', ...extra };
  }

  it('never matches the conditions the body cannot decide, so rules holding them are skipped', () => {
    const undecidable: Rule['when'][] = [
      [{ field: 'model', unknown_model: true }],
      [{ field: 'temperature', wrong_type: true }],
      [{ field: 'temperature', out_of_bounds: true }],
      [{ field: 'max_tokens', above: 1 }],
      [{ body: 'invalid_json' }],
      [{ model_kind: 'current' }, { after: 'retires_at' }],
      [{ account: 'balance_too_low' }],
    ];
    for (const when of undecidable) {
      expect(checkRules(withRules(rule('t.x', when, { status: 400 })), chat({ temperature: 5, max_tokens: 9 }), site)).toBeUndefined();
    }
  });

  it('skips a rule when only an also_when set holds something undecidable', () => {
    const r = rule('t.x', [{ field: 'temperature', present: true }], { status: 400 }, { also_when: [[{ account: 'balance_too_low' }]] });
    expect(checkRules(withRules(r), chat({ temperature: 1 }), site)).toBeUndefined();
  });

  it('skips acceptances and effects, and rules weaker than must', () => {
    const when: Rule['when'] = [{ field: 'temperature', present: true }];
    const rules = [
      rule('t.accepted', when, { accepted: true }),
      rule('t.effect', when, { effect: 'something' }),
      rule('t.should', when, { status: 400 }, { strength: 'should' }),
      rule('t.other-endpoint', when, { status: 400 }, { endpoint: 'fim_completions' }),
      rule('t.legacy-only', when, { status: 400 }, { applies_to_models: { kind: 'legacy_alias' } }),
    ];
    expect(checkRules(withRules(...rules), chat({ temperature: 1 }), site)).toBeUndefined();
    expect(checkRules(withRules(...rules), chat({ temperature: 1 }, 'svc-chat'), chatSite('svc-chat'))?.message).toMatch(/t\.legacy-only/);
  });

  it('returns the first matching refusal in the order of the rules', () => {
    const when: Rule['when'] = [{ field: 'temperature', present: true }];
    const refusal = checkRules(withRules(rule('t.first', when, { status: 422 }), rule('t.second', when, { status: 400 })), chat({ temperature: 1 }), site);
    expect(refusal).toMatchObject({ status: 422, param: 'temperature' });
    expect(refusal?.message).toMatch(/^Rule t\.first \(here: `temperature` is set; rule t\.first\)$/);
  });

  it.each<[string, Rule['when'], Body, boolean]>([
    ['equals [] (an empty array)', [{ field: 'messages', equals: [] }], chat({ messages: [] }), true],
    ['equals [] against a non-empty array', [{ field: 'messages', equals: [] }], chat(), false],
    ['equals, deep, on a dotted path', [{ field: 'tool_choice.function', equals: { name: 'f' } }], chat({ tool_choice: { type: 'function', function: { name: 'f' } } }), true],
    ['equals on a missing nested object', [{ field: 'response_format.type', equals: 'json_object' }], chat(), false],
    ['not_equals against an absent field', [{ field: 'logprobs', not_equals: true }], chat(), true],
    ['not_equals against the same value', [{ field: 'logprobs', not_equals: true }], chat({ logprobs: true }), false],
    ['in', [{ field: 'reasoning_effort', in: ['low', 'high'] }], chat({ reasoning_effort: 'high' }), true],
    ['in, not listed', [{ field: 'reasoning_effort', in: ['low', 'high'] }], chat({ reasoning_effort: 'none' }), false],
    ['present false', [{ field: 'stop', present: false }], chat(), true],
    ['present true against null (null counts as absent)', [{ field: 'stop', present: true }], chat({ stop: null }), false],
    ['base', [{ base: 'base_url' }], chat(), true],
    ['base_not', [{ base_not: 'base_url' }], chat(), false],
    ['model', [{ model: 'svc-v4-flash' }], chat(), true],
    ['model_kind', [{ model_kind: 'current' }], chat(), true],
    ['model_kind, other kind', [{ model_kind: 'legacy_alias' }], chat(), false],
    ['any_message_has', [{ any_message_has: 'name' }], chat({ messages: [{ role: 'user', content: 'x', name: 'a' }] }), true],
    ['last_message role only', [{ last_message: { role: 'user' } }], chat(), true],
    ['last_message with prefix false', [{ last_message: { role: 'assistant', prefix: false } }], chat({ messages: conversation({ content: 'x', prefix: false }) }), true],
    ['all conditions of a set must hold', [{ base: 'base_url' }, { model: 'svc-chat' }], chat(), false],
  ])('condition: %s', (_name, when, body, matches) => {
    const refusal = checkRules(withRules(rule('t.cond', when, { status: 400 })), body, site);
    expect(refusal !== undefined).toBe(matches);
  });

  it('throws on a condition it does not know, rather than silently ignoring it', () => {
    const odd = rule('t.odd', [{ field: 'temperature' }], { status: 400 });
    expect(() => checkRules(withRules(odd), chat(), site)).toThrow(/no test the emulator knows/);
  });
});
