import { describe, expect, it } from 'vitest';
import type { RequestSite } from './site.ts';
import { validateRequest } from './request.ts';
import { chat, chatSite, spec, specStatus, TOOL, type Body } from '#harness/testing/validateTestkit.ts';

const MISSING = 'chat.required-field.missing';
const WRONG_TYPE = 'chat.wrong-type';
const EMPTY = 'chat.messages.non-empty';
const BOUND = 'bound.out-of-range';

describe('validateRequest: valid chat bodies are accepted', () => {
  const fourStops = ['\n\n', 'END', '###', 'Q:'];
  const toolRoundTrip = [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Weather in Paris?', name: 'alice' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"temp": 21}' },
  ];
  const cases: [string, Body, RequestSite?][] = [
    ['the minimal body', chat()],
    ['temperature 0', chat({ temperature: 0 })],
    ['temperature 2', chat({ temperature: 2 })],
    ['temperature 1 (an integer is a number)', chat({ temperature: 1 })],
    ['frequency_penalty -2', chat({ frequency_penalty: -2 })],
    ['frequency_penalty 2', chat({ frequency_penalty: 2 })],
    ['presence_penalty -2', chat({ presence_penalty: -2 })],
    ['presence_penalty 2', chat({ presence_penalty: 2 })],
    ['top_p 0.95 (no bounds stated)', chat({ top_p: 0.95 })],
    ['top_p 7 (no bounds stated, so none refused)', chat({ top_p: 7 })],
    ['4 stop strings', chat({ stop: fourStops })],
    ['a string stop', chat({ stop: 'END' })],
    ['stop null', chat({ stop: null })],
    ['stream true', chat({ stream: true, stream_options: { include_usage: true } })],
    ['tool_choice auto', chat({ tools: [TOOL], tool_choice: 'auto' })],
    ['tool_choice none', chat({ tools: [TOOL], tool_choice: 'none' })],
    ['tool_choice required', chat({ tools: [TOOL], tool_choice: 'required' })],
    ['tool_choice object form', chat({ tools: [TOOL], tool_choice: { type: 'function', function: { name: 'get_weather' } } })],
    ['response_format json_object', chat({ response_format: { type: 'json_object' } })],
    ['response_format text', chat({ response_format: { type: 'text' } })],
    ['thinking enabled', chat({ thinking: { type: 'enabled' } })],
    ['thinking enabled with budget high', chat({ thinking: { type: 'enabled', budget: 'high' } })],
    ['thinking disabled', chat({ thinking: { type: 'disabled' } })],
    // The description lists the values of `type` but never says it is required: left open, accepted here.
    ['thinking without type', chat({ thinking: {} })],
    ['response_format without type', chat({ response_format: {} })],
    ['thinking enabled with tools', chat({ thinking: { type: 'enabled' }, tools: [TOOL] })],
    ['reasoning_effort low', chat({ reasoning_effort: 'low' })],
    ['reasoning_effort high', chat({ reasoning_effort: 'high' })],
    ['reasoning_effort none', chat({ reasoning_effort: 'none' })],
    ['logprobs without top_logprobs', chat({ logprobs: true })],
    ['max_tokens 384000 for svc-v4-flash', chat({ max_tokens: 384000 })],
    ['max_tokens 384000 for svc-v4-pro', chat({ max_tokens: 384000 }, 'svc-v4-pro'), chatSite('svc-v4-pro')],
    ['max_tokens 8192 for svc-chat (8K, high reading)', chat({ max_tokens: 8192 }, 'svc-chat'), chatSite('svc-chat')],
    ['max_tokens 65536 for svc-reasoner (64K, high reading)', chat({ max_tokens: 65536 }, 'svc-reasoner'), chatSite('svc-reasoner')],
    ['unknown extra fields (user, n, seed)', chat({ user: 'u-1', n: 1, seed: 7, metadata: { a: 1 } })],
    ['a tool round trip: assistant content null beside tool_calls, tool_call_id, name', chat({ tools: [TOOL], messages: toolRoundTrip })],
    ['an assistant turn with tool_calls and no content', chat({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [] }, { role: 'user', content: 'y' }] })],
    ['the same body on the v1 base', chat({ temperature: 0.7 }), chatSite('svc-v4-flash', 'v1')],
    ['a conversation ending with an assistant turn on base_url', chat({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }] })],
  ];
  const topLogprobs: [string, Body][] = Array.from({ length: 21 }, (_, n) => [`top_logprobs ${n} with logprobs true`, chat({ logprobs: true, top_logprobs: n })]);

  it.each([...cases, ...topLogprobs])('%s', (_name, body, site) => {
    expect(validateRequest(spec, body, site ?? chatSite(String(body.model)))).toBeUndefined();
  });
});

describe('validateRequest: broken chat bodies are refused with the spec status, param and a message naming the field', () => {
  interface Broken {
    name: string;
    body: unknown;
    rule: string;
    /** The status the description states for this case, beside the one read from the spec. */
    literal: number;
    param: string | null;
    message: RegExp;
    site?: RequestSite;
  }
  const cases: Broken[] = [
    { name: 'missing model', body: chat({ model: undefined }), rule: MISSING, literal: 400, param: 'model', message: /`model` is required/ },
    { name: 'missing messages', body: chat({ messages: undefined }), rule: MISSING, literal: 400, param: 'messages', message: /`messages` is required/ },
    { name: 'empty messages', body: chat({ messages: [] }), rule: EMPTY, literal: 400, param: 'messages', message: /^`messages` must be a non-empty array$/ },
    { name: 'messages a string', body: chat({ messages: 'Hello' }), rule: WRONG_TYPE, literal: 400, param: 'messages', message: /`messages` must be an array/ },
    { name: 'temperature 2.5', body: chat({ temperature: 2.5 }), rule: BOUND, literal: 400, param: 'temperature', message: /^`temperature` must be at most 2 \(got 2\.5\)$/ },
    { name: 'temperature -0.1', body: chat({ temperature: -0.1 }), rule: BOUND, literal: 400, param: 'temperature', message: /^`temperature` must be at least 0 \(got -0\.1\)$/ },
    { name: 'temperature "hot"', body: chat({ temperature: 'hot' }), rule: WRONG_TYPE, literal: 400, param: 'temperature', message: /^`temperature` must be a number \(got string "hot"\)$/ },
    { name: 'temperature null', body: chat({ temperature: null }), rule: WRONG_TYPE, literal: 400, param: 'temperature', message: /`temperature` must be a number \(got null\)/ },
    { name: 'top_p "x"', body: chat({ top_p: 'x' }), rule: WRONG_TYPE, literal: 400, param: 'top_p', message: /`top_p` must be a number/ },
    { name: 'frequency_penalty 2.1', body: chat({ frequency_penalty: 2.1 }), rule: BOUND, literal: 400, param: 'frequency_penalty', message: /`frequency_penalty` must be at most 2/ },
    { name: 'presence_penalty -2.5', body: chat({ presence_penalty: -2.5 }), rule: BOUND, literal: 400, param: 'presence_penalty', message: /`presence_penalty` must be at least -2/ },
    { name: 'stop with 5 strings', body: chat({ stop: ['a', 'b', 'c', 'd', 'e'] }), rule: BOUND, literal: 400, param: 'stop', message: /^`stop` must have at most 4 items \(got 5\)$/ },
    { name: 'stop a number', body: chat({ stop: 5 }), rule: WRONG_TYPE, literal: 400, param: 'stop', message: /^`stop` must be a string, an array or null \(got integer 5\)$/ },
    { name: 'stop with a number inside', body: chat({ stop: ['a', 1] }), rule: WRONG_TYPE, literal: 400, param: 'stop.1', message: /`stop\.1` must be a string/ },
    { name: 'role "robot"', body: chat({ messages: [{ role: 'robot', content: 'hi' }] }), rule: BOUND, literal: 400, param: 'messages.0.role', message: /`messages\.0\.role` must be one of "system", "user", "assistant", "tool" \(got "robot"\)/ },
    { name: 'a message without role', body: chat({ messages: [{ content: 'hi' }] }), rule: MISSING, literal: 400, param: 'messages.0.role', message: /`messages\.0\.role` is required/ },
    { name: 'a message without content', body: chat({ messages: [{ role: 'user' }] }), rule: MISSING, literal: 400, param: 'messages.0.content', message: /`messages\.0\.content` is required/ },
    { name: 'content as an array of parts', body: chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }), rule: WRONG_TYPE, literal: 400, param: 'messages.0.content', message: /`messages\.0\.content` must be a string/ },
    { name: 'content null on a user message', body: chat({ messages: [{ role: 'user', content: null }] }), rule: WRONG_TYPE, literal: 400, param: 'messages.0.content', message: /`messages\.0\.content` must be a string \(got null\)/ },
    { name: 'content null on an assistant message without tool_calls', body: chat({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: null }] }), rule: WRONG_TYPE, literal: 400, param: 'messages.1.content', message: /`messages\.1\.content`/ },
    { name: 'a message that is a string', body: chat({ messages: ['hi'] }), rule: WRONG_TYPE, literal: 400, param: 'messages.0', message: /`messages\.0` must be an object/ },
    { name: 'top_logprobs 21', body: chat({ logprobs: true, top_logprobs: 21 }), rule: BOUND, literal: 400, param: 'top_logprobs', message: /`top_logprobs` must be at most 20 \(got 21\)/ },
    { name: 'top_logprobs -1', body: chat({ logprobs: true, top_logprobs: -1 }), rule: BOUND, literal: 400, param: 'top_logprobs', message: /`top_logprobs` must be at least 0/ },
    { name: 'top_logprobs 2.5', body: chat({ logprobs: true, top_logprobs: 2.5 }), rule: WRONG_TYPE, literal: 400, param: 'top_logprobs', message: /`top_logprobs` must be an integer/ },
    { name: 'top_logprobs without logprobs', body: chat({ top_logprobs: 5 }), rule: 'chat.top-logprobs.requires-logprobs', literal: 400, param: 'top_logprobs', message: /`top_logprobs` requires `logprobs` = true/ },
    { name: 'top_logprobs with logprobs false', body: chat({ logprobs: false, top_logprobs: 5 }), rule: 'chat.top-logprobs.requires-logprobs', literal: 400, param: 'top_logprobs', message: /`top_logprobs` requires `logprobs` = true/ },
    { name: 'logprobs "yes"', body: chat({ logprobs: 'yes' }), rule: WRONG_TYPE, literal: 400, param: 'logprobs', message: /`logprobs` must be a boolean/ },
    { name: 'stream "true"', body: chat({ stream: 'true' }), rule: WRONG_TYPE, literal: 400, param: 'stream', message: /`stream` must be a boolean/ },
    { name: 'max_tokens 384001 for svc-v4-flash', body: chat({ max_tokens: 384001 }), rule: BOUND, literal: 400, param: 'max_tokens', message: /`max_tokens` must be at most 384000 for model svc-v4-flash/ },
    { name: 'max_tokens 8193 for svc-chat', body: chat({ max_tokens: 8193 }, 'svc-chat'), site: chatSite('svc-chat'), rule: BOUND, literal: 400, param: 'max_tokens', message: /`max_tokens` must be at most 8192 for model svc-chat \(its max_output_tokens, 8K read as 8192\) \(got 8193\)/ },
    { name: 'max_tokens 65537 for svc-reasoner', body: chat({ max_tokens: 65537 }, 'svc-reasoner'), site: chatSite('svc-reasoner'), rule: BOUND, literal: 400, param: 'max_tokens', message: /`max_tokens` must be at most 65536/ },
    { name: 'max_tokens 100.5', body: chat({ max_tokens: 100.5 }), rule: WRONG_TYPE, literal: 400, param: 'max_tokens', message: /`max_tokens` must be an integer/ },
    { name: 'tool_choice "sometimes"', body: chat({ tools: [TOOL], tool_choice: 'sometimes' }), rule: BOUND, literal: 400, param: 'tool_choice', message: /`tool_choice` must be one of "auto", "none", "required" \(got "sometimes"\)/ },
    { name: 'tool_choice 3', body: chat({ tool_choice: 3 }), rule: WRONG_TYPE, literal: 400, param: 'tool_choice', message: /`tool_choice` must be a string or an object/ },
    { name: 'tool_choice object without function', body: chat({ tool_choice: { type: 'function' } }), rule: MISSING, literal: 400, param: 'tool_choice.function', message: /`tool_choice\.function` is required/ },
    { name: 'tool_choice object with type "tool"', body: chat({ tool_choice: { type: 'tool', function: { name: 'f' } } }), rule: BOUND, literal: 400, param: 'tool_choice.type', message: /`tool_choice\.type` must be "function"/ },
    { name: 'a tool without a function name', body: chat({ tools: [{ type: 'function', function: { description: 'x' } }] }), rule: MISSING, literal: 400, param: 'tools.0.function.name', message: /`tools\.0\.function\.name` is required/ },
    { name: 'tools not an array', body: chat({ tools: TOOL }), rule: WRONG_TYPE, literal: 400, param: 'tools', message: /`tools` must be an array/ },
    { name: 'response_format.type "yaml"', body: chat({ response_format: { type: 'yaml' } }), rule: BOUND, literal: 400, param: 'response_format.type', message: /`response_format\.type` must be one of "json_object", "text" \(got "yaml"\)/ },
    { name: 'response_format "json_object" (a string)', body: chat({ response_format: 'json_object' }), rule: WRONG_TYPE, literal: 400, param: 'response_format', message: /`response_format` must be an object/ },
    { name: 'thinking.type "maybe"', body: chat({ thinking: { type: 'maybe' } }), rule: BOUND, literal: 400, param: 'thinking.type', message: /`thinking\.type` must be one of "enabled", "disabled" \(got "maybe"\)/ },
    { name: 'thinking true', body: chat({ thinking: true }), rule: WRONG_TYPE, literal: 400, param: 'thinking', message: /`thinking` must be an object/ },
    { name: 'reasoning_effort "max"', body: chat({ reasoning_effort: 'max' }), rule: BOUND, literal: 400, param: 'reasoning_effort', message: /`reasoning_effort` must be one of "low", "high", "none" \(got "max"\)/ },
    { name: 'model 42', body: chat({ model: 42 }), rule: WRONG_TYPE, literal: 400, param: 'model', message: /`model` must be a string/ },
    { name: 'a body that is an array', body: [chat()], rule: WRONG_TYPE, literal: 400, param: null, message: /the request body must be a JSON object \(got array/ },
    { name: 'a body that is a string', body: 'hello', rule: WRONG_TYPE, literal: 400, param: null, message: /the request body must be a JSON object \(got string/ },
    { name: 'a body that is null', body: null, rule: WRONG_TYPE, literal: 400, param: null, message: /the request body must be a JSON object \(got null\)/ },
    { name: 'a body that is a number', body: 3, rule: WRONG_TYPE, literal: 400, param: null, message: /the request body must be a JSON object/ },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const refusal = validateRequest(spec, c.body, c.site ?? chatSite());
    expect(refusal).toBeDefined();
    expect(refusal!.status).toBe(specStatus(c.rule));
    expect(refusal!.status).toBe(c.literal);
    expect(refusal!.param).toBe(c.param);
    expect(refusal!.message).toMatch(c.message);
    expect(refusal!.type).toBe(spec.errors.envelope.sample?.type);
    expect(refusal!.code).toBe('invalid_request_error');
  });

  it('reports the first problem, in the order the spec lists the fields', () => {
    const refusal = validateRequest(spec, { temperature: 9, messages: [] }, chatSite());
    expect(refusal?.param).toBe('model');
  });
});

describe('validateRequest: the endpoint', () => {
  it('throws for an endpoint the spec does not have, or one without a request body', () => {
    expect(() => validateRequest(spec, chat(), { base: 'base_url', endpoint: 'nope' })).toThrow(/no endpoint `nope`/);
    expect(() => validateRequest(spec, {}, { base: 'base_url', endpoint: 'list_models' })).toThrow(/takes no request body/);
  });
});
