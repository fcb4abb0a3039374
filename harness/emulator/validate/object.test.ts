import { describe, expect, it } from 'vitest';
import type { Spec } from '#harness/spec/model.ts';
import { validateObject } from './object.ts';
import { validateRequest } from './request.ts';
import { chat, chatSite, messagesSite, spec, specStatus } from '#harness/testing/validateTestkit.ts';

describe('validateObject reads every bound from the spec', () => {
  it('refuses temperature 1.8 once the spec says the maximum is 1.5', () => {
    expect(validateObject(spec, 'chat_completion_request', chat({ temperature: 1.8 }), chatSite())).toBeUndefined();
    const changed: Spec = structuredClone(spec);
    changed.objects.chat_completion_request!.fields.temperature!.maximum = 1.5;
    const refusal = validateObject(changed, 'chat_completion_request', chat({ temperature: 1.8 }), chatSite());
    expect(refusal).toMatchObject({ status: specStatus('bound.out-of-range', changed), param: 'temperature', message: '`temperature` must be at most 1.5 (got 1.8)' });
    expect(validateObject(changed, 'chat_completion_request', chat({ temperature: 1.5 }), chatSite())).toBeUndefined();
  });

  it('reads allowed values and item limits from the spec', () => {
    const changed: Spec = structuredClone(spec);
    changed.objects.chat_completion_request!.fields.reasoning_effort!.enum = ['low', 'high', 'none', 'max'];
    const stop = changed.objects.chat_completion_request!.fields.stop!.one_of![1]!;
    stop.max_items = 2;
    expect(validateObject(changed, 'chat_completion_request', chat({ reasoning_effort: 'max' }), chatSite())).toBeUndefined();
    expect(validateObject(changed, 'chat_completion_request', chat({ stop: ['a', 'b', 'c'] }), chatSite())?.message).toMatch(/at most 2 items/);
  });

  it('reads per-model maxima from the model table, and checks none without a model', () => {
    const changed: Spec = structuredClone(spec);
    changed.models['svc-v4-flash']!.max_output_tokens = '1K';
    expect(validateObject(changed, 'chat_completion_request', chat({ max_tokens: 1024 }), chatSite())).toBeUndefined();
    expect(validateObject(changed, 'chat_completion_request', chat({ max_tokens: 1025 }), chatSite())?.param).toBe('max_tokens');
    expect(validateObject(spec, 'chat_completion_request', chat({ max_tokens: 10_000_000 }), { base: 'base_url', endpoint: 'chat_completions' })).toBeUndefined();
  });

  it('answers with the status the spec gives the rule, whatever it is', () => {
    const changed: Spec = structuredClone(spec);
    changed.rules.find((r) => r.id === 'chat.required-field.missing')!.expect = { status: 422 };
    expect(validateObject(changed, 'chat_completion_request', chat({ model: undefined }), chatSite())?.status).toBe(422);
  });

  it('accepts an empty messages array when the spec no longer asks for one (and does not miss the dropped rule)', () => {
    const changed: Spec = structuredClone(spec);
    changed.rules = changed.rules.filter((r) => r.id !== 'chat.messages.non-empty');
    delete changed.objects.chat_completion_request!.fields.messages!.min_items;
    expect(validateRequest(changed, chat({ messages: [] }), chatSite())).toBeUndefined();
  });

  it('throws for an object the spec does not have', () => {
    expect(() => validateObject(spec, 'no_such_object', {}, chatSite())).toThrow(/no object `no_such_object`/);
  });
});

describe('validateObject: strength', () => {
  it('enforces the must-level fields of the messages format: model, max_tokens, messages', () => {
    const site = messagesSite();
    const ok = { model: 'svc-v4-flash', max_tokens: 256, messages: [{ role: 'user', content: 'Hello' }] };
    expect(validateRequest(spec, ok, site)).toBeUndefined();
    expect(validateRequest(spec, { ...ok, max_tokens: undefined }, site)).toMatchObject({ status: specStatus('chat.required-field.missing'), param: 'max_tokens' });
    expect(validateRequest(spec, { ...ok, max_tokens: '256' }, site)).toMatchObject({ status: specStatus('chat.wrong-type'), param: 'max_tokens' });
    expect(validateRequest(spec, { ...ok, messages: ['Hello'] }, site)).toMatchObject({ status: specStatus('chat.wrong-type'), param: 'messages.0' });
  });

  it('does not enforce message role and content of the messages format (strength unspecified)', () => {
    const body = { model: 'svc-v4-flash', max_tokens: 256, system: 'Be brief.', messages: [{ role: 'robot', content: [{ type: 'text', text: 'Hi' }] }, { content: 5 }] };
    expect(validateRequest(spec, body, messagesSite())).toBeUndefined();
  });

  it('lets a must inside an unspecified field stay unspecified', () => {
    const changed: Spec = structuredClone(spec);
    changed.objects.chat_completion_request!.fields.thinking!.strength = 'should';
    expect(validateObject(changed, 'chat_completion_request', chat({ thinking: { type: 'maybe' } }), chatSite())).toBeUndefined();
    expect(validateObject(changed, 'chat_completion_request', chat({ thinking: 'on' }), chatSite())).toBeUndefined();
  });
});

describe('validateObject: message content', () => {
  const call = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } };
  it.each([
    ['null content beside tool_calls', { role: 'assistant', content: null, tool_calls: [call] }, undefined],
    ['no content beside tool_calls', { role: 'assistant', tool_calls: [call] }, undefined],
    ['string content beside tool_calls', { role: 'assistant', content: 'Calling f.', tool_calls: [call] }, undefined],
    ['null content without tool_calls', { role: 'assistant', content: null }, 'chat.wrong-type'],
    ['no content without tool_calls', { role: 'assistant' }, 'chat.required-field.missing'],
    ['null content on a tool message', { role: 'tool', tool_call_id: 'c1', content: null, tool_calls: [call] }, 'chat.wrong-type'],
    ['an array of parts beside tool_calls', { role: 'assistant', content: [{ type: 'text', text: 'x' }], tool_calls: [call] }, 'chat.wrong-type'],
    ['a number', { role: 'user', content: 5 }, 'chat.wrong-type'],
  ])('%s', (_name, message, rule) => {
    const body = chat({ messages: [{ role: 'user', content: 'x' }, message] });
    const refusal = validateObject(spec, 'chat_completion_request', body, chatSite());
    if (rule === undefined) expect(refusal).toBeUndefined();
    else expect(refusal).toMatchObject({ status: specStatus(rule), param: 'messages.1.content' });
  });
});
