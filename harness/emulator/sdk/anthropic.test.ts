import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '#harness/emulator/index.ts';
import { SDK_WRONG_KEY, startForSdk } from '#harness/testing/startForSdk.ts';

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
