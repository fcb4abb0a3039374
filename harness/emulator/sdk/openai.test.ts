import OpenAI from 'openai';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionChunk,
} from 'openai/resources/chat/completions';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { Completion, CompletionCreateParamsNonStreaming } from 'openai/resources/completions';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { RunningEmulator } from '#harness/emulator/index.ts';
import { SDK_WRONG_KEY, startForSdk } from '#harness/testing/startForSdk.ts';
import { rejectionOf } from '#harness/testing/rejectionOf.ts';

// The official `openai` client, used as its users use it, against the emulator's chat-completions
// bases: {base_url}, {base_url}/v1 and {beta_base_url}.

/** The service's extra request field (the description: "pass them as extra top-level body fields"). */
type WithThinking<P> = P & { thinking: { type: 'enabled' | 'disabled' } };
/** The service's extra response field, which the SDK's types do not know. */
type WithReasoning<M> = M & { reasoning_content?: string | null };
/** The chunk delta with the service's streamed reasoning field. */
type ReasoningDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null };

const MODEL = 'svc-v4-flash';

const WEATHER: ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather in a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'unit'],
    },
  },
};
const TIME: ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'get_time',
    description: 'Current time in a time zone',
    parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
  },
};

let emu: RunningEmulator;
let client: OpenAI;
let beta: OpenAI;

beforeAll(async () => {
  emu = await startForSdk();
  client = new OpenAI({ apiKey: emu.apiKey, baseURL: emu.url, maxRetries: 0 });
  beta = new OpenAI({ apiKey: emu.apiKey, baseURL: `${emu.url}/beta`, maxRetries: 0 });
});

afterAll(async () => {
  await emu.close();
});

/** Function tool calls of a message, narrowed from the SDK's function | custom union. */
function functionCalls(message: ChatCompletionMessage): { name: string; arguments: string }[] {
  return (message.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [c.function] : []));
}

describe('models.list', () => {
  test('lists the current models, and svc-chat before it retires', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['svc-v4-flash', 'svc-v4-pro', 'svc-chat']));
  });

  // {base_url}/v1 is "a compatibility alias ... with identical behaviour" (Versioning 1).
  test('a client whose baseURL ends in /v1 lists the same models', async () => {
    const v1 = new OpenAI({ apiKey: emu.apiKey, baseURL: `${emu.url}/v1`, maxRetries: 0 });
    const [plain, versioned] = await Promise.all([client.models.list(), v1.models.list()]);
    expect(versioned.data.map((m) => m.id)).toEqual(plain.data.map((m) => m.id));
  });

  test('no longer lists svc-chat from 2026-07-24 15:59 UTC', async () => {
    const later = await startForSdk({ now: () => new Date('2026-07-24T15:59:00Z') });
    try {
      const page = await new OpenAI({ apiKey: later.apiKey, baseURL: later.url, maxRetries: 0 }).models.list();
      const ids = page.data.map((m) => m.id);
      expect(ids).toEqual(expect.arrayContaining(['svc-v4-flash', 'svc-v4-pro']));
      expect(ids).not.toContain('svc-chat');
    } finally {
      await later.close();
    }
  });
});

describe('chat.completions.create', () => {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Say something about the sea.' },
  ];
  // No `stream` field: the same request goes to create() and to the stream helper.
  const request = { model: MODEL, messages };

  test('answers with string content, finish_reason stop and consistent usage', async () => {
    const completion = await client.chat.completions.create(request);
    const choice = completion.choices[0]!;
    expect(completion.object).toBe('chat.completion');
    expect(choice.message.role).toBe('assistant');
    expect(typeof choice.message.content).toBe('string');
    expect(choice.message.content).not.toBe('');
    expect(choice.finish_reason).toBe('stop');
    const usage = completion.usage!;
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  });

  test('`Repeat: <text>` answers exactly <text>', async () => {
    const completion = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Repeat: tide and foam' }] });
    expect(completion.choices[0]!.message.content).toBe('tide and foam');
  });

  test('a client whose baseURL ends in /v1 gets the same answer', async () => {
    const v1 = new OpenAI({ apiKey: emu.apiKey, baseURL: `${emu.url}/v1`, maxRetries: 0 });
    const [plain, versioned] = await Promise.all([client.chat.completions.create(request), v1.chat.completions.create(request)]);
    expect(versioned.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
  });

  test('stream: true yields role first, the same content, and finish_reason last', async () => {
    const expected = (await client.chat.completions.create(request)).choices[0]!.message.content;
    const stream = await client.chat.completions.create({ ...request, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(expected);
    const last = chunks[chunks.length - 1]!;
    expect(last.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
  });

  test('the stream helper ends in the same completion', async () => {
    const expected = (await client.chat.completions.create(request)).choices[0]!.message.content;
    const deltas: string[] = [];
    const stream = client.chat.completions.stream(request);
    stream.on('content', (delta) => deltas.push(delta));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe(expected);
    expect(final.choices[0]!.finish_reason).toBe('stop');
    expect(deltas.join('')).toBe(expected);
  });
});

describe('tools', () => {
  test("tool_choice 'required' calls a tool with JSON arguments holding its required properties", async () => {
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hello there.' }],
      tools: [WEATHER, TIME],
      tool_choice: 'required',
    });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const calls = functionCalls(choice.message);
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    const tool = [WEATHER, TIME].find((t) => t.function.name === call.name);
    expect(tool).toBeDefined();
    const args = JSON.parse(call.arguments) as Record<string, unknown>;
    for (const required of tool!.function.parameters!.required as string[]) expect(args).toHaveProperty(required);
  });

  test('the named form calls that function', async () => {
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hello there.' }],
      tools: [WEATHER, TIME],
      tool_choice: { type: 'function', function: { name: 'get_time' } },
    });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const calls = functionCalls(choice.message);
    expect(calls.map((c) => c.name)).toEqual(['get_time']);
    expect(JSON.parse(calls[0]!.arguments)).toHaveProperty('zone');
  });

  test('streamed tool calls accumulate into JSON arguments, finish_reason tool_calls', async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Use get_weather for Lisbon.' }],
      tools: [WEATHER, TIME],
      tool_choice: 'auto',
      stream: true,
    });
    const calls: { id?: string; name: string; arguments: string }[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (!choice) continue;
      for (const part of choice.delta.tool_calls ?? []) {
        const call = (calls[part.index] ??= { name: '', arguments: '' });
        if (part.id) call.id = part.id;
        call.name += part.function?.name ?? '';
        call.arguments += part.function?.arguments ?? '';
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    expect(finish).toBe('tool_calls');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.name).toBe('get_weather');
    expect(calls[0]!.id).toEqual(expect.any(String));
    const args = JSON.parse(calls[0]!.arguments) as Record<string, unknown>;
    expect(args).toHaveProperty('city');
    expect(['celsius', 'fahrenheit']).toContain(args.unit);
  });
});

describe('conversations', () => {
  test("a tool round trip: the call named by tool_choice, the message pushed back as it is, a tool result, then tool_choice 'none' answers text", async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Lisbon?' }];
    const first = await client.chat.completions.create({ model: MODEL, messages, tools: [WEATHER, TIME], tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    const answer = first.choices[0]!.message;
    const call = answer.tool_calls![0]!;
    // The answer message as the SDK returns it: its users push it back unchanged.
    messages.push(answer);
    const result = JSON.stringify({ city: 'Lisbon', temperature: 19, unit: 'celsius' });
    messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    const second = await client.chat.completions.create({ model: MODEL, messages, tools: [WEATHER, TIME], tool_choice: 'none' });
    const choice = second.choices[0]!;
    expect(choice.finish_reason).toBe('stop');
    expect(choice.message.tool_calls ?? []).toEqual([]);
    expect(choice.message.content).not.toBe('');
    expect(choice.message.content).toContain(result);
  });

  test('the code word told in an earlier turn is the answer; unknown without it', async () => {
    const told: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Remember this: the code word is quince-42.' },
      { role: 'assistant', content: 'I will remember it.' },
      { role: 'user', content: 'What is the code word?' },
    ];
    expect((await client.chat.completions.create({ model: MODEL, messages: told })).choices[0]!.message.content).toBe('The code word is quince-42.');
    const untold = await client.chat.completions.create({ model: MODEL, messages: told.slice(-1) });
    expect(untold.choices[0]!.message.content).toMatch(/^I do not know the code word/);
  });

  test('thinking with tools across turns: the call turn sent back without reasoning_content is answered (current model)', async () => {
    const question: ChatCompletionMessageParam = { role: 'user', content: 'What is the weather in Lisbon?' };
    const call: WithThinking<ChatCompletionCreateParamsNonStreaming> = {
      model: MODEL,
      messages: [question],
      tools: [WEATHER],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      thinking: { type: 'enabled' },
    };
    const first = await client.chat.completions.create(call);
    const answer = first.choices[0]!.message as WithReasoning<ChatCompletionMessage>;
    expect(answer.reasoning_content).toEqual(expect.stringMatching(/\S/));
    // Only `content` (and the calls) go back: the description's rule on reasoning_content.
    const { reasoning_content: _dropped, ...sentBack } = answer;
    const messages: ChatCompletionMessageParam[] = [question, sentBack, { role: 'tool', tool_call_id: answer.tool_calls![0]!.id, content: '{"temperature":19}' }];
    const second = await client.chat.completions.create({ ...call, messages, tool_choice: 'none' });
    expect(second.choices[0]!.finish_reason).toBe('stop');
    expect(second.choices[0]!.message.content).toContain('{"temperature":19}');
  });

  test('reasoning_content sent back: refused (400) by svc-reasoner before its retirement, accepted by a current model', async () => {
    // `reasoning_content` is the service's extra message field; the SDK sends it as given.
    const withReasoning: WithReasoning<ChatCompletionAssistantMessageParam> = { role: 'assistant', content: 'first', reasoning_content: 'I thought.' };
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Repeat: first' }, withReasoning, { role: 'user', content: 'Repeat: second' }];
    const err = await rejectionOf(client.chat.completions.create({ model: 'svc-reasoner', messages }));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({ status: 400 });
    const current = await client.chat.completions.create({ model: MODEL, messages });
    expect(current.choices[0]!.message.content).toBe('second');
  });
});

describe('JSON mode', () => {
  test("response_format json_object answers with content that parses", async () => {
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Answer in JSON with the keys "answer" and "confidence": what colour is the sea?' }],
      response_format: { type: 'json_object' },
    });
    const content = completion.choices[0]!.message.content;
    expect(typeof content).toBe('string');
    expect(() => JSON.parse(content!) as unknown).not.toThrow();
  });
});

describe('thinking (extra body field)', () => {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'How many legs has a spider?' }];
  // No `stream` field, so the same params suit create(), create({stream: true}) and the helper.
  const thinkingOn: WithThinking<{ model: string; messages: ChatCompletionMessageParam[] }> = { model: MODEL, messages, thinking: { type: 'enabled' } };

  /** The non-streamed answer with thinking on. The cast names the service's extra field. */
  async function thoughtAnswer(): Promise<WithReasoning<ChatCompletionMessage>> {
    return (await client.chat.completions.create(thinkingOn)).choices[0]!.message as WithReasoning<ChatCompletionMessage>;
  }

  test('thinking enabled: the message carries non-empty reasoning_content', async () => {
    const message = await thoughtAnswer();
    expect(typeof message.reasoning_content).toBe('string');
    expect(message.reasoning_content).not.toBe('');
    expect(typeof message.content).toBe('string');
  });

  test('without it: reasoning_content is absent or null', async () => {
    const completion = await client.chat.completions.create({ model: MODEL, messages });
    const message = completion.choices[0]!.message as WithReasoning<ChatCompletionMessage>;
    expect(message.reasoning_content ?? null).toBeNull();
  });

  test('streamed: delta.reasoning_content pieces add up to the non-streamed reasoning', async () => {
    const whole = await thoughtAnswer();
    let reasoning = '';
    let content = '';
    for await (const chunk of await client.chat.completions.create({ ...thinkingOn, stream: true })) {
      const delta = chunk.choices[0]?.delta as ReasoningDelta | undefined;
      reasoning += delta?.reasoning_content ?? '';
      content += delta?.content ?? '';
    }
    expect(reasoning).toBe(whole.reasoning_content);
    expect(content).toBe(whole.content);
  });

  test("stream helper: reasoning gathered from 'chunk' events equals the non-streamed reasoning", async () => {
    const whole = await thoughtAnswer();
    // The helper's snapshot does not concatenate delta fields it does not know (it keeps the last
    // `reasoning_content` piece), so reasoning is read from the raw chunks, as its users must.
    let reasoning = '';
    const stream = client.chat.completions.stream(thinkingOn);
    stream.on('chunk', (chunk) => {
      reasoning += (chunk.choices[0]?.delta as ReasoningDelta | undefined)?.reasoning_content ?? '';
    });
    const final = await stream.finalChatCompletion();
    expect(reasoning).toBe(whole.reasoning_content);
    expect(final.choices[0]!.message.content).toBe(whole.content);
  });
});

describe('beta base', () => {
  test('fill-in-the-middle: completions.create answers choices[0].text', async () => {
    const completion = await beta.completions.create({ model: 'svc-v4-pro', prompt: 'def add(a, b):\n', suffix: '\n    return c\n' });
    expect(typeof completion.choices[0]!.text).toBe('string');
  });

  test('fill-in-the-middle stream: true iterates text pieces that join to the non-streamed text', async () => {
    const params = { model: 'svc-v4-pro', prompt: 'def add(a, b):\n', suffix: '\n    return c\n', max_tokens: 64 };
    const whole = await beta.completions.create(params);
    const chunks: Completion[] = [];
    for await (const chunk of await beta.completions.create({ ...params, stream: true })) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.object === 'text_completion')).toBe(true);
    expect(chunks.map((c) => c.choices[0]!.text).join('')).toBe(whole.choices[0]!.text);
    const last = chunks.at(-1)!;
    expect(last.choices[0]!.finish_reason).toBe(whole.choices[0]!.finish_reason);
    expect(last.usage).toEqual(whole.usage);
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
  });

  test('chat prefix completion is accepted and answers string content', async () => {
    // `prefix` is the service's extra message field; the SDK sends it as given.
    const prefix: ChatCompletionAssistantMessageParam & { prefix: true } = { role: 'assistant', content: 'Once upon a time', prefix: true };
    const completion = await beta.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Tell me a story.' }, prefix],
    });
    expect(typeof completion.choices[0]!.message.content).toBe('string');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
  });
});

describe('typed errors', () => {
  test('a wrong key: AuthenticationError, 401', async () => {
    const wrong = new OpenAI({ apiKey: SDK_WRONG_KEY, baseURL: emu.url, maxRetries: 0 });
    const err = await rejectionOf(wrong.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err).toMatchObject({ status: 401 });
  });

  test('temperature 3: BadRequestError, 400', async () => {
    const err = await rejectionOf(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], temperature: 3 }));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({ status: 400 });
  });

  test('fill-in-the-middle with thinking enabled: UnprocessableEntityError, 422', async () => {
    const params: WithThinking<CompletionCreateParamsNonStreaming> = { model: 'svc-v4-pro', prompt: 'def add(a, b):\n', suffix: '\n', thinking: { type: 'enabled' } };
    const err = await rejectionOf(beta.completions.create(params));
    expect(err).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect(err).toMatchObject({ status: 422 });
  });

  test('fill-in-the-middle with JSON mode: BadRequestError, 400', async () => {
    // `response_format` is not a field of the SDK's completion params; it goes as an extra body field.
    const params: CompletionCreateParamsNonStreaming & { response_format: { type: 'json_object' } } = { model: 'svc-v4-pro', prompt: 'def add(a, b):\n', response_format: { type: 'json_object' } };
    const err = await rejectionOf(beta.completions.create(params));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({ status: 400 });
  });

  test('a prefix request without prefix = true: UnprocessableEntityError, 422', async () => {
    const err = await rejectionOf(
      beta.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Tell me a story.' }, { role: 'assistant', content: 'Once upon a time' }] }),
    );
    expect(err).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect(err).toMatchObject({ status: 422 });
  });

  test('maintenance: 503 (the SDK maps it to InternalServerError) with Retry-After of at least 30 s', async () => {
    const down = await startForSdk({ maintenance: true });
    try {
      const err = await rejectionOf(new OpenAI({ apiKey: down.apiKey, baseURL: down.url, maxRetries: 0 }).models.list());
      expect(err).toBeInstanceOf(OpenAI.InternalServerError);
      expect(err).toMatchObject({ status: 503 });
      expect(Number((err as InstanceType<typeof OpenAI.InternalServerError>).headers.get('retry-after'))).toBeGreaterThanOrEqual(30);
    } finally {
      await down.close();
    }
  });

  describe('429 once retries are spent (concurrencyPerKey 0 refuses every request)', () => {
    let busy: RunningEmulator;
    beforeAll(async () => {
      busy = await startForSdk({ concurrencyPerKey: 0 });
    });
    afterAll(async () => {
      await busy.close();
    });

    const ask = (c: OpenAI) => c.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });

    test('maxRetries 0: RateLimitError, 429, with Retry-After', async () => {
      const err = await rejectionOf(ask(new OpenAI({ apiKey: busy.apiKey, baseURL: busy.url, maxRetries: 0 })));
      expect(err).toBeInstanceOf(OpenAI.RateLimitError);
      expect(err).toMatchObject({ status: 429 });
      expect((err as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toMatch(/^\d+$/);
    });

    test('maxRetries 1: the SDK waits Retry-After, retries once, then throws RateLimitError', async () => {
      let requests = 0;
      let retryAfter: string | null = null;
      const counting: typeof fetch = async (input, init) => {
        requests += 1;
        const res = await fetch(input, init);
        retryAfter ??= res.headers.get('retry-after');
        return res;
      };
      // The SDK sleeps with setTimeout: what it asked to wait is read from the call, not timed.
      const timers = vi.spyOn(globalThis, 'setTimeout');
      try {
        const err = await rejectionOf(ask(new OpenAI({ apiKey: busy.apiKey, baseURL: busy.url, maxRetries: 1, fetch: counting })));
        expect(err).toBeInstanceOf(OpenAI.RateLimitError);
        expect(requests).toBe(2);
        expect(retryAfter).toMatch(/^\d+$/);
        // It waited Retry-After out before its one retry.
        expect(timers).toHaveBeenCalledWith(expect.any(Function), Number(retryAfter) * 1000);
      } finally {
        timers.mockRestore();
      }
    });
  });
});
