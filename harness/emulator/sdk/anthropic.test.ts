import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, MessageParam, Tool, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '#harness/emulator/index.ts';
import { SDK_WRONG_KEY, startForSdk } from '#harness/testing/startForSdk.ts';
import { rejectionOf } from '#harness/testing/rejectionOf.ts';

// The official `@anthropic-ai/sdk` client, used as its users use it, against the emulator's
// messages base ({messages_base_url}, mounted at {base_url}/anthropic).

let emu: RunningEmulator;
let client: Anthropic;

beforeAll(async () => {
  emu = await startForSdk();
  client = new Anthropic({ apiKey: emu.apiKey, baseURL: `${emu.url}/anthropic`, maxRetries: 0 });
});

afterAll(async () => {
  await emu.close();
});

const request: MessageCreateParamsNonStreaming = {
  model: 'svc-v4-flash',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Say something about the mountains.' }],
};

const WEATHER: Tool = {
  name: 'get_weather',
  description: 'Current weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'unit'] },
};
const TIME: Tool = {
  name: 'get_time',
  description: 'Current time in a time zone',
  input_schema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
};
const QUESTION: MessageParam = { role: 'user', content: 'What is the weather in Paris?' };

/** The tool_use blocks of a message. */
function toolUses(message: Anthropic.Message): ToolUseBlock[] {
  return message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

/** The text of a message's first content block, which the description says carries `text`. */
function firstText(message: Anthropic.Message): string {
  const block = message.content[0];
  if (block?.type !== 'text') throw new Error(`first content block is ${JSON.stringify(block)}, not text`);
  return block.text;
}

describe('messages', () => {
  test('create: content[0] is a text block with text', async () => {
    const message = await client.messages.create(request);
    expect(message.role).toBe('assistant');
    expect(message.content[0]?.type).toBe('text');
    expect(firstText(message)).not.toBe('');
  });

  test('create: `Repeat: <text>` answers exactly <text>', async () => {
    const message = await client.messages.create({ ...request, messages: [{ role: 'user', content: 'Repeat: peaks and passes' }] });
    expect(firstText(message)).toBe('peaks and passes');
  });

  test('stream: the text deltas and finalMessage() equal the non-streamed answer', async () => {
    const expected = firstText(await client.messages.create(request));
    const deltas: string[] = [];
    const stream = client.messages.stream(request);
    stream.on('text', (delta) => deltas.push(delta));
    const final = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(expected);
    expect(firstText(final)).toBe(expected);
  });

  test('create: a stop sequence ends the text and is reported as the stop reason', async () => {
    const msg = await client.messages.create({ model: 'svc-v4-flash', max_tokens: 64, stop_sequences: ['STOP'], messages: [{ role: 'user', content: 'Repeat: one two STOP three' }] });
    expect(msg.content[0]).toMatchObject({ type: 'text', text: 'one two ' });
    expect(msg).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'STOP' });
  });

  test('stream: finalMessage() ends with stop_reason end_turn and the usage of the non-streamed answer', async () => {
    const whole = await client.messages.create(request);
    const final = await client.messages.stream(request).finalMessage();
    expect(final).toMatchObject({ role: 'assistant', stop_reason: 'end_turn', usage: { input_tokens: whole.usage.input_tokens, output_tokens: whole.usage.output_tokens } });
  });

  test('a wrong key: AuthenticationError, 401', async () => {
    const wrong = new Anthropic({ apiKey: SDK_WRONG_KEY, baseURL: `${emu.url}/anthropic`, maxRetries: 0 });
    let err: unknown;
    try {
      await wrong.messages.create(request);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(err).toMatchObject({ status: 401 });
  });
});

describe('tools', () => {
  test("tool_choice {type: 'tool', name} answers a tool_use block for that tool, stop_reason tool_use", async () => {
    const message = await client.messages.create({ ...request, messages: [QUESTION], tools: [WEATHER, TIME], tool_choice: { type: 'tool', name: 'get_time' } });
    expect(message.stop_reason).toBe('tool_use');
    const [use, ...more] = toolUses(message);
    expect(more).toEqual([]);
    expect(use).toMatchObject({ type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'get_time', input: { zone: expect.any(String) } });
    // The description's "content array whose first item has text" still holds.
    expect(message.content[0]?.type).toBe('text');
  });

  test("tool_choice {type: 'any'} calls a tool; {type: 'none'} answers text", async () => {
    const any = await client.messages.create({ ...request, messages: [QUESTION], tools: [WEATHER, TIME], tool_choice: { type: 'any' } });
    expect(toolUses(any)).toHaveLength(1);
    const none = await client.messages.create({ ...request, messages: [{ role: 'user', content: 'Use get_weather for Paris.' }], tools: [WEATHER], tool_choice: { type: 'none' } });
    expect(toolUses(none)).toEqual([]);
    expect(none.stop_reason).toBe('end_turn');
  });

  test('the tool_use turn sent back with a tool_result block is answered with text about the result, end_turn', async () => {
    const params = { ...request, tools: [WEATHER, TIME] };
    const first = await client.messages.create({ ...params, messages: [QUESTION], tool_choice: { type: 'tool', name: 'get_weather' } });
    const use = toolUses(first)[0]!;
    const result = '{"temperature_c":21,"sky":"clear"}';
    const second = await client.messages.create({
      ...params,
      // The answer taken as it is, as the SDK's users do.
      messages: [QUESTION, { role: first.role, content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: result }] }],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(toolUses(second)).toEqual([]);
    expect(firstText(second)).toContain(result);
  });

  test('streamed: input_json_delta pieces are assembled by the SDK into the input of the non-streamed call', async () => {
    const params: MessageCreateParamsNonStreaming = { ...request, messages: [QUESTION], tools: [WEATHER, TIME], tool_choice: { type: 'tool', name: 'get_weather' } };
    const whole = await client.messages.create(params);
    const pieces: string[] = [];
    const stream = client.messages.stream(params);
    stream.on('inputJson', (partial) => pieces.push(partial));
    const final = await stream.finalMessage();
    expect(pieces.length).toBeGreaterThan(1);
    expect(final.stop_reason).toBe('tool_use');
    const use = toolUses(final)[0]!;
    expect(use.name).toBe('get_weather');
    expect(use.input).toEqual(toolUses(whole)[0]!.input);
    expect(JSON.parse(pieces.join(''))).toEqual(use.input);
  });

  test('streamed: the events come in the format order', async () => {
    const names: string[] = [];
    const stream = client.messages.stream({ ...request, messages: [QUESTION], tools: [WEATHER], tool_choice: { type: 'tool', name: 'get_weather' } });
    stream.on('streamEvent', (event) => {
      if (names.at(-1) !== event.type) names.push(event.type);
    });
    await stream.done();
    expect(names).toEqual([
      'message_start',
      'content_block_start', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
  });
});

describe('errors', () => {
  test('an unknown model: an APIError carrying the message, in the format\'s error body', async () => {
    const err = await rejectionOf(client.messages.create({ ...request, model: 'svc-no-such-model' }));
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const apiError = err as InstanceType<typeof Anthropic.APIError>;
    expect([400, 404]).toContain(apiError.status);
    expect(apiError.error).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.stringContaining('svc-no-such-model') } });
    expect(apiError.message).toContain('svc-no-such-model');
  });

  test('max_tokens missing: BadRequestError, 400, type invalid_request_error', async () => {
    const { max_tokens: _left, ...withoutMaxTokens } = request;
    const err = await rejectionOf(client.messages.create(withoutMaxTokens as MessageCreateParamsNonStreaming));
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err).toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } } });
  });
});
