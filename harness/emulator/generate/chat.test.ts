import { describe, expect, test } from 'vitest';
import { generateChat, type ChatInput } from './chat.ts';
import { countTokens, firstTokens, tokenize } from './tokenize.ts';
import { prng } from './prng.ts';
import { valueFromSchema } from './valueFromSchema.ts';

const base: ChatInput = {
  seed: 7,
  messages: [{ role: 'user', content: 'Hello there' }],
  thinking: false,
  effort: undefined,
  tools: [],
  toolChoice: undefined,
  jsonMode: false,
  stop: [],
  maxTokens: 10_000,
};

const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city', 'unit'] } };
const clock = { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } };

describe('generateChat', () => {
  test('is deterministic for a request and seed, and changes with the seed', () => {
    expect(generateChat(base)).toEqual(generateChat(base));
    expect(generateChat({ ...base, seed: 8 }).content).not.toBe(generateChat(base).content);
  });

  test('`Repeat: <text>` answers exactly <text>', () => {
    expect(generateChat({ ...base, messages: [{ role: 'user', content: 'Repeat: one two three' }] }).content).toBe('one two three');
  });

  test('a stop sequence ends the output before it, with finish_reason stop', () => {
    const g = generateChat({ ...base, messages: [{ role: 'user', content: 'Repeat: alpha beta STOP gamma' }], stop: ['STOP'] });
    expect(g).toMatchObject({ content: 'alpha beta ', finishReason: 'stop' });
  });

  test('max_tokens cuts the output at that many tokens, with finish_reason length', () => {
    const g = generateChat({ ...base, maxTokens: 3 });
    expect(g.finishReason).toBe('length');
    expect(g.completionTokens).toBe(3);
    expect(countTokens(g.content)).toBe(3);
  });

  test('thinking adds reasoning, counted inside the max_tokens budget', () => {
    const g = generateChat({ ...base, thinking: true });
    expect(g.reasoning).toBeTruthy();
    expect(g.completionTokens).toBe(g.reasoningTokens + countTokens(g.content));
    const tight = generateChat({ ...base, thinking: true, maxTokens: 2 });
    expect(tight).toMatchObject({ finishReason: 'length', content: '', completionTokens: 2 });
  });

  test('JSON mode answers with a JSON object', () => {
    expect(() => JSON.parse(generateChat({ ...base, jsonMode: true }).content)).not.toThrow();
  });

  test('tool_choice: required calls a tool, named calls that one, none calls none, auto calls the one named in the message', () => {
    const tools = [weather, clock];
    expect(generateChat({ ...base, tools, toolChoice: 'required' }).toolCalls[0]?.name).toBe('get_weather');
    expect(generateChat({ ...base, tools, toolChoice: { name: 'get_time' } }).toolCalls[0]?.name).toBe('get_time');
    expect(generateChat({ ...base, tools, toolChoice: 'none', messages: [{ role: 'user', content: 'use get_time' }] }).toolCalls).toEqual([]);
    expect(generateChat({ ...base, tools, toolChoice: 'auto', messages: [{ role: 'user', content: 'use get_time' }] }).toolCalls[0]?.name).toBe('get_time');
    expect(generateChat({ ...base, tools, toolChoice: 'auto' }).toolCalls).toEqual([]);
  });

  test('a tool call has finish_reason tool_calls and arguments that hold the required properties', () => {
    const g = generateChat({ ...base, tools: [weather], toolChoice: 'required' });
    expect(g.finishReason).toBe('tool_calls');
    const args = JSON.parse(g.toolCalls[0]!.arguments) as Record<string, unknown>;
    expect(typeof args.city).toBe('string');
    expect(['c', 'f']).toContain(args.unit);
  });

  test('after a tool result the model answers with text', () => {
    const g = generateChat({ ...base, tools: [weather], toolChoice: 'required', messages: [{ role: 'user', content: 'x' }, { role: 'tool', content: '{"t":20}' }] });
    expect(g.toolCalls).toEqual([]);
    expect(g.content.length).toBeGreaterThan(0);
  });
});

describe('tokenize', () => {
  test('tokens join back to the text, and counts add up', () => {
    const text = 'Hello, world! 42 times.';
    expect(tokenize(text).join('')).toBe(text);
    expect(countTokens(text + text)).toBe(2 * countTokens(text));
    expect(firstTokens(text, 2)).toBe('Hello,');
  });
});

describe('valueFromSchema', () => {
  test('respects type, enum, bounds and required properties', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 3, maximum: 5 }, tags: { type: 'array', items: { type: 'string' }, minItems: 2 }, ok: { type: 'boolean' } }, required: ['n', 'tags', 'ok'] };
    for (let seed = 0; seed < 20; seed++) {
      const v = valueFromSchema(schema, prng(seed)) as { n: number; tags: string[]; ok: boolean };
      expect(Number.isInteger(v.n) && v.n >= 3 && v.n <= 5).toBe(true);
      expect(v.tags.length).toBeGreaterThanOrEqual(2);
      expect(typeof v.ok).toBe('boolean');
    }
  });
});
