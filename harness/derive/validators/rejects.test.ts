/**
 * The generated validators reject bodies broken in each way the description states, at level `must`,
 * naming the spec entry (specRef) of the broken rule; and the matching valid bodies, bounds included,
 * pass. The valid bodies are written by hand from the description's tables (not from the spec), so a
 * derivation that drifted from the description shows here.
 */
import { describe, expect, it } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import type { DeriveOptions } from '#harness/derive/schemas/index.ts';
import { strongestLevel, validatorFor, type Violation } from './index.ts';

const { spec } = loadSpec();

const judge = (objectName: string, body: unknown, options: DeriveOptions = { profile: 'default' }): Violation[] =>
  validatorFor(spec, objectName, options)(body);

// ------------------------------------------------------------------ valid bodies, by hand
/** Builders of minimal valid bodies, each from one table of the description. Fresh copies every call. */
const valid = {
  /** "Chat completion response object (HTTP 200, stream = false)" + finish_reason and usage tables. */
  completion: () => ({
    id: 'chatcmpl-123e4567-e89b-42d3-a456-426614174000',
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'svc-v4-flash',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 10 },
  }),
  /** "Stream chunk object" + Events table, first chunk: role assistant, empty content. */
  firstChunk: () => ({
    id: 'chatcmpl-123e4567-e89b-42d3-a456-426614174000',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { role: 'assistant', content: '' } }],
  }),
  /** Events table, final chunk: empty delta and finish_reason. */
  finalChunk: () => ({
    id: 'chatcmpl-123e4567-e89b-42d3-a456-426614174000',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
  }),
  /** "Chat completion request object": the two required fields. */
  request: () => ({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'Hi' }] }),
  /** "Balance object". */
  balance: () => ({
    is_available: true,
    balance_infos: [{ currency: 'USD', total_balance: '7.50', granted_balance: '5.00', topped_up_balance: '2.50' }],
  }),
  /** Errors: error object with message and type, and in the shown sample also code. */
  errorEnvelope: () => ({ error: { message: 'Authentication Fails', type: 'invalid_request_error', code: 'invalid_api_key' } }),
  /** "Fill-in-the-middle response": choices[].text. */
  fim: () => ({ choices: [{ text: 'middle' }] }),
  /** GET /models: a list of models with their ids. */
  modelList: () => ({ object: 'list', data: [{ id: 'svc-v4-flash' }, { id: 'svc-v4-pro' }] }),
  /** Messages format: "a `content` array whose first item has `text`". */
  messagesReply: () => ({ content: [{ type: 'text', text: 'Hello.' }] }),
};

describe('valid bodies pass', () => {
  it.each([
    ['chat_completion', valid.completion()],
    ['chat_completion_chunk', valid.firstChunk()],
    ['chat_completion_chunk', valid.finalChunk()],
    ['chat_completion_request', valid.request()],
    ['balance', valid.balance()],
    ['error_envelope', valid.errorEnvelope()],
    ['fim_completion', valid.fim()],
    ['model_list', valid.modelList()],
    ['messages_response', valid.messagesReply()],
  ] as const)('%s', (object, body) => {
    expect(judge(object, body)).toEqual([]);
  });

  it('in the strict profile too (they carry no field the description does not list)', () => {
    expect(judge('chat_completion', valid.completion(), { profile: 'strict' })).toEqual([]);
    expect(judge('chat_completion_chunk', valid.firstChunk(), { profile: 'strict' })).toEqual([]);
    expect(judge('chat_completion_request', valid.request(), { profile: 'strict' })).toEqual([]);
  });

  it('every finish_reason of the table ("tool_calls": the model wants one or more tools called, so the message carries them)', () => {
    for (const reason of ['stop', 'length', 'tool_calls', 'content_filter']) {
      const b: any = valid.completion(); // any: a tool call is added below
      b.choices[0].finish_reason = reason;
      if (reason === 'tool_calls') b.choices[0].message.tool_calls = [{ function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }];
      expect(judge('chat_completion', b), reason).toEqual([]);
    }
  });

  it('a stream chunk with `choices: []` (a usage-only chunk): each chunk alone may carry no choice', () => {
    expect(judge('chat_completion_chunk', { ...valid.finalChunk(), choices: [] })).toEqual([]);
  });

  it.each([
    ['temperature 0', { temperature: 0 }],
    ['temperature 2', { temperature: 2 }],
    ['top_logprobs 0', { logprobs: true, top_logprobs: 0 }],
    ['top_logprobs 20', { logprobs: true, top_logprobs: 20 }],
    ['4 stop sequences', { stop: ['a', 'b', 'c', 'd'] }],
    ['stop as one string', { stop: 'END' }],
    ['stop null (the default)', { stop: null }],
    ['frequency_penalty -2.0 and presence_penalty 2.0', { frequency_penalty: -2.0, presence_penalty: 2.0 }],
    ['every role', { messages: ['system', 'user', 'assistant', 'tool'].map((role) => ({ role, content: 'x' })) }],
  ])('request bound: %s', (_title, patch) => {
    expect(judge('chat_completion_request', { ...valid.request(), ...patch })).toEqual([]);
  });
});

// ---------------------------------------------------------------------------- broken bodies
interface RejectCase {
  title: string;
  object: string;
  options?: DeriveOptions;
  body: () => unknown;
  /** The one violation expected: always at level must. */
  path: string;
  specRef: string;
  keyword: string;
  params?: Record<string, unknown>;
}

/** Applies a change to a fresh valid body and returns it. */
function broken<T>(make: () => T, change: (b: any) => void): () => T { // any: captured bodies are arbitrary JSON read field by field
  return () => {
    const b = make();
    change(b);
    return b;
  };
}

const REJECTS: RejectCase[] = [
  // missing required field
  { title: 'completion without usage.total_tokens', object: 'chat_completion', body: broken(valid.completion, (b) => delete b.usage.total_tokens), path: '/usage', specRef: 'objects.usage', keyword: 'required', params: { missingProperty: 'total_tokens' } },
  { title: 'completion without choices', object: 'chat_completion', body: broken(valid.completion, (b) => delete b.choices), path: '', specRef: 'objects.chat_completion', keyword: 'required', params: { missingProperty: 'choices' } },
  { title: 'request without messages', object: 'chat_completion_request', body: broken(valid.request, (b) => delete b.messages), path: '', specRef: 'objects.chat_completion_request', keyword: 'required', params: { missingProperty: 'messages' } },
  { title: 'error envelope without message', object: 'error_envelope', body: broken(valid.errorEnvelope, (b) => delete b.error.message), path: '/error', specRef: 'objects.error_envelope.fields.error', keyword: 'required', params: { missingProperty: 'message' } },
  // wrong type
  { title: 'created as a string', object: 'chat_completion', body: broken(valid.completion, (b) => (b.created = '1767225600')), path: '/created', specRef: 'objects.chat_completion.fields.created', keyword: 'type', params: { type: 'integer' } },
  { title: 'usage.prompt_tokens as 1.5', object: 'chat_completion', body: broken(valid.completion, (b) => (b.usage.prompt_tokens = 1.5)), path: '/usage/prompt_tokens', specRef: 'objects.usage.fields.prompt_tokens', keyword: 'type', params: { type: 'integer' } },
  { title: 'balance amount as a number instead of a decimal string', object: 'balance', body: broken(valid.balance, (b) => (b.balance_infos[0].total_balance = 7.5)), path: '/balance_infos/0/total_balance', specRef: 'objects.balance_info.fields.total_balance', keyword: 'type', params: { type: 'string' } },
  { title: 'balance amount as a string that is not a decimal', object: 'balance', body: broken(valid.balance, (b) => (b.balance_infos[0].granted_balance = '5,00')), path: '/balance_infos/0/granted_balance', specRef: 'objects.balance_info.fields.granted_balance', keyword: 'pattern' },
  { title: 'fim choice text as a number', object: 'fim_completion', body: broken(valid.fim, (b) => (b.choices[0].text = 42)), path: '/choices/0/text', specRef: 'objects.fim_completion.fields.choices.items.fields.text', keyword: 'type' },
  // value out of range / not allowed
  { title: 'finish_reason "done"', object: 'chat_completion', body: broken(valid.completion, (b) => (b.choices[0].finish_reason = 'done')), path: '/choices/0/finish_reason', specRef: 'objects.choice.fields.finish_reason', keyword: 'enum' },
  { title: 'temperature 2.5', object: 'chat_completion_request', body: () => ({ ...valid.request(), temperature: 2.5 }), path: '/temperature', specRef: 'objects.chat_completion_request.fields.temperature', keyword: 'maximum', params: { comparison: '<=', limit: 2 } },
  { title: 'temperature -0.1', object: 'chat_completion_request', body: () => ({ ...valid.request(), temperature: -0.1 }), path: '/temperature', specRef: 'objects.chat_completion_request.fields.temperature', keyword: 'minimum', params: { comparison: '>=', limit: 0 } },
  { title: 'top_logprobs 21', object: 'chat_completion_request', body: () => ({ ...valid.request(), logprobs: true, top_logprobs: 21 }), path: '/top_logprobs', specRef: 'objects.chat_completion_request.fields.top_logprobs', keyword: 'maximum', params: { comparison: '<=', limit: 20 } },
  { title: 'top_logprobs -1', object: 'chat_completion_request', body: () => ({ ...valid.request(), logprobs: true, top_logprobs: -1 }), path: '/top_logprobs', specRef: 'objects.chat_completion_request.fields.top_logprobs', keyword: 'minimum' },
  { title: 'presence_penalty 2.1', object: 'chat_completion_request', body: () => ({ ...valid.request(), presence_penalty: 2.1 }), path: '/presence_penalty', specRef: 'objects.chat_completion_request.fields.presence_penalty', keyword: 'maximum' },
  {
    title: 'stop with 5 sequences',
    object: 'chat_completion_request',
    body: () => ({ ...valid.request(), stop: ['a', 'b', 'c', 'd', 'e'] }),
    path: '/stop',
    // `stop` is string | array of at most 4 | null: the array alternative fits the value, so its own
    // error is the one reported (not "matches no alternative").
    specRef: 'objects.chat_completion_request.fields.stop.one_of.1',
    keyword: 'maxItems',
  },
  { title: 'empty messages', object: 'chat_completion_request', body: () => ({ ...valid.request(), messages: [] }), path: '/messages', specRef: 'objects.chat_completion_request.fields.messages', keyword: 'minItems', params: { limit: 1 } },
  { title: 'message role "robot"', object: 'chat_completion_request', body: () => ({ ...valid.request(), messages: [{ role: 'robot', content: 'beep' }] }), path: '/messages/0/role', specRef: 'objects.message.fields.role', keyword: 'enum', params: { allowedValues: ['system', 'user', 'assistant', 'tool'] } },
  { title: 'response_format type "yaml"', object: 'chat_completion_request', body: () => ({ ...valid.request(), response_format: { type: 'yaml' } }), path: '/response_format/type', specRef: 'objects.chat_completion_request.fields.response_format.fields.type', keyword: 'enum' },
  { title: 'chunk with object "chat.completion"', object: 'chat_completion_chunk', body: broken(valid.firstChunk, (b) => (b.object = 'chat.completion')), path: '/object', specRef: 'objects.chat_completion_chunk.fields.object', keyword: 'const', params: { allowedValue: 'chat.completion.chunk' } },
  { title: 'completion with object "chat.completion.chunk"', object: 'chat_completion', body: broken(valid.completion, (b) => (b.object = 'chat.completion.chunk')), path: '/object', specRef: 'objects.chat_completion.fields.object', keyword: 'const' },
  { title: 'assistant message with role "user"', object: 'chat_completion', body: broken(valid.completion, (b) => (b.choices[0].message.role = 'user')), path: '/choices/0/message/role', specRef: 'objects.assistant_message.fields.role', keyword: 'const' },
  // empty where the description needs something (each min_items entailed, with its basis)
  { title: 'completion with `choices: []`', object: 'chat_completion', body: broken(valid.completion, (b) => (b.choices = [])), path: '/choices', specRef: 'objects.chat_completion.fields.choices.min_items', keyword: 'minItems', params: { limit: 1 } },
  { title: 'completion whose message is null', object: 'chat_completion', body: broken(valid.completion, (b) => (b.choices[0].message = null)), path: '/choices/0/message', specRef: 'objects.assistant_message', keyword: 'type' },
  { title: 'completion whose message has no content and no tool calls', object: 'chat_completion', body: broken(valid.completion, (b) => delete b.choices[0].message.content), path: '/choices/0/message', specRef: 'objects.assistant_message', keyword: 'required', params: { missingProperty: 'content' } },
  {
    title: 'finish_reason "tool_calls" with `tool_calls: []`',
    object: 'chat_completion',
    body: broken(valid.completion, (b) => {
      b.choices[0].finish_reason = 'tool_calls';
      b.choices[0].message.tool_calls = [];
    }),
    path: '/choices/0/message/tool_calls',
    specRef: 'objects.choice.implies.0',
    keyword: 'minItems',
  },
  { title: 'finish_reason "tool_calls" without tool_calls', object: 'chat_completion', body: broken(valid.completion, (b) => (b.choices[0].finish_reason = 'tool_calls')), path: '/choices/0/message', specRef: 'objects.choice.implies.0', keyword: 'required', params: { missingProperty: 'tool_calls' } },
  { title: 'fim completion with `choices: []`', object: 'fim_completion', body: broken(valid.fim, (b) => (b.choices = [])), path: '/choices', specRef: 'objects.fim_completion.fields.choices.min_items', keyword: 'minItems' },
  { title: 'fim choice without text', object: 'fim_completion', body: broken(valid.fim, (b) => delete b.choices[0].text), path: '/choices/0', specRef: 'objects.fim_completion.fields.choices.items', keyword: 'required', params: { missingProperty: 'text' } },
  { title: 'messages reply with `content: []`', object: 'messages_response', body: broken(valid.messagesReply, (b) => (b.content = [])), path: '/content', specRef: 'objects.messages_response.fields.content.min_items', keyword: 'minItems' },
  { title: 'messages reply whose first content item has no text', object: 'messages_response', body: broken(valid.messagesReply, (b) => delete b.content[0].text), path: '/content/0', specRef: 'objects.messages_response.fields.content.prefix_items.0', keyword: 'required' },
  // per-model bounds
  { title: 'svc-v4-flash max_tokens 384001', object: 'chat_completion_request', options: { profile: 'default', model: 'svc-v4-flash' }, body: () => ({ ...valid.request(), max_tokens: 384_001 }), path: '/max_tokens', specRef: 'objects.chat_completion_request.fields.max_tokens', keyword: 'maximum', params: { comparison: '<=', limit: 384_000 } },
  { title: 'svc-chat max_tokens 8193', object: 'chat_completion_request', options: { profile: 'default', model: 'svc-chat' }, body: () => ({ ...valid.request(), model: 'svc-chat', max_tokens: 8193 }), path: '/max_tokens', specRef: 'objects.chat_completion_request.fields.max_tokens', keyword: 'maximum', params: { comparison: '<=', limit: 8192 } },
];

describe('broken bodies are rejected at level must, naming the rule', () => {
  it.each(REJECTS.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const violations = judge(c.object, c.body(), c.options);
    expect(violations).toEqual([
      expect.objectContaining({
        path: c.path,
        level: 'must',
        specRef: c.specRef,
        keyword: c.keyword,
        ...(c.params ? { params: expect.objectContaining(c.params) } : {}),
      }),
    ]);
    expect(strongestLevel(violations)).toBe('must');
  });

  it('a non-object body cannot be an error envelope', () => {
    expect(judge('error_envelope', 'Failed to deserialize the JSON body')).toEqual([
      expect.objectContaining({ path: '', level: 'must', specRef: 'objects.error_envelope', keyword: 'type' }),
    ]);
  });
});

describe('max_tokens bounds per model', () => {
  it('svc-v4-flash: 384000 is accepted, 384001 rejected', () => {
    const options = { profile: 'default', model: 'svc-v4-flash' } as const;
    expect(judge('chat_completion_request', { ...valid.request(), max_tokens: 384_000 }, options)).toEqual([]);
    expect(judge('chat_completion_request', { ...valid.request(), max_tokens: 384_001 }, options)).toHaveLength(1);
  });

  it('svc-chat ("8K", read leniently as up to 8192): 8000 and 8192 are accepted, 8193 rejected', () => {
    const options = { profile: 'default', model: 'svc-chat' } as const;
    const req = (n: number) => ({ ...valid.request(), model: 'svc-chat', max_tokens: n });
    expect(judge('chat_completion_request', req(8000), options)).toEqual([]);
    expect(judge('chat_completion_request', req(8192), options)).toEqual([]);
    expect(judge('chat_completion_request', req(8193), options)).toEqual([
      expect.objectContaining({ path: '/max_tokens', level: 'must', params: expect.objectContaining({ limit: 8192 }) }),
    ]);
  });

  it('without a model the bound is left open (it depends on the model)', () => {
    expect(judge('chat_completion_request', { ...valid.request(), max_tokens: 1_000_000 })).toEqual([]);
  });

  it('max_tokens must still be an integer for any model', () => {
    expect(judge('chat_completion_request', { ...valid.request(), max_tokens: 10.5 })).toEqual([
      expect.objectContaining({ path: '/max_tokens', level: 'must', specRef: 'objects.chat_completion_request.fields.max_tokens', keyword: 'type' }),
    ]);
  });
});

describe('weaker rules are reported at their own level, not must', () => {
  it('a completion id without the chatcmpl- prefix: should', () => {
    const b = valid.completion();
    b.id = '123e4567-e89b-42d3-a456-426614174000';
    expect(judge('chat_completion', b)).toEqual([
      expect.objectContaining({ path: '/id', level: 'should', specRef: 'objects.chat_completion.fields.id.pattern' }),
    ]);
  });

  it('tool-call arguments that are not JSON: should', () => {
    const b: any = valid.completion(); // any: captured bodies are arbitrary JSON read field by field
    b.choices[0].finish_reason = 'tool_calls';
    b.choices[0].message.tool_calls = [{ function: { name: 'get_weather', arguments: '{"city": ' } }];
    expect(judge('chat_completion', b)).toEqual([
      expect.objectContaining({
        path: '/choices/0/message/tool_calls/0/function/arguments',
        level: 'should',
        specRef: 'objects.tool_call.fields.function.fields.arguments.json_string',
      }),
    ]);
  });

  it('an error envelope without code: unspecified', () => {
    expect(judge('error_envelope', { error: { message: 'x', type: 'invalid_request_error' } })).toEqual([
      expect.objectContaining({ path: '/error', level: 'unspecified', specRef: 'objects.error_envelope.fields.error.fields.code.required' }),
    ]);
  });
});

describe('chunk usage (sent although the description does not mention it)', () => {
  // The stream chunk table lists no usage, so a chunk's usage is an advisory field: whatever is wrong
  // inside it is reported at unspecified level, never as a must-level failure.
  const usage = valid.completion().usage;

  it('a wrong type inside usage is advisory', () => {
    const chunk = { ...valid.finalChunk(), usage: { ...usage, prompt_tokens: 1.5 } };
    expect(judge('chat_completion_chunk', chunk)).toEqual([
      expect.objectContaining({ path: '/usage/prompt_tokens', level: 'unspecified', specRef: 'objects.usage.fields.prompt_tokens', keyword: 'type' }),
    ]);
  });

  it('a missing field inside usage is advisory', () => {
    const { total_tokens: _dropped, ...partial } = usage;
    const chunk = { ...valid.finalChunk(), usage: partial };
    expect(judge('chat_completion_chunk', chunk)).toEqual([
      expect.objectContaining({ path: '/usage', level: 'unspecified', specRef: 'objects.usage.fields.total_tokens.required', keyword: 'required' }),
    ]);
  });

  it('usage null or a full usage: accepted', () => {
    expect(judge('chat_completion_chunk', { ...valid.finalChunk(), usage: null })).toEqual([]);
    expect(judge('chat_completion_chunk', { ...valid.finalChunk(), usage })).toEqual([]);
  });
});

describe('model list (its container shape is not shown)', () => {
  it('an entry without id inside `data` is advisory, as everything inside the unspecified container', () => {
    expect(judge('model_list', broken(valid.modelList, (b) => delete b.data[1].id)())).toEqual([
      expect.objectContaining({ path: '/data/1', level: 'unspecified', specRef: 'objects.model_entry.fields.id.required', keyword: 'required' }),
    ]);
  });
});
