import { describe, expect, test } from 'vitest';
import { CODE_WORD_QUESTION, CODE_WORD_STATED, CODE_WORD_UNKNOWN, generateChat, type ChatInput } from './chat.ts';
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

/** A UTF-16 surrogate not part of a pair (with `u`, a pair is one code point). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

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

  test('text outside ASCII is repeated as sent, and a stop sequence of it ends the output', () => {
    const text = 'café 東京 👋🏽 שלום e\u0301 🎉';
    expect(generateChat({ ...base, messages: [{ role: 'user', content: `Repeat: ${text}` }] }).content).toBe(text);
    const g = generateChat({ ...base, messages: [{ role: 'user', content: 'Repeat: café 東京 停止🛑 שלום' }], stop: ['停止🛑'] });
    expect(g).toMatchObject({ content: 'café 東京 ', finishReason: 'stop', stopSequence: '停止🛑' });
  });

  test('tokens outside ASCII are whole characters: never half a surrogate pair, never a base without its marks', () => {
    const text = 'cafe\u0301 東京 👋🏽 👩\u200D💻 שלום';
    const tokens = tokenize(text);
    expect(tokens.join('')).toBe(text);
    expect(tokens.filter((t) => LONE_SURROGATE.test(t))).toEqual([]);
    expect(tokens).toEqual(['cafe\u0301', ' 東', '京', ' 👋🏽', ' 👩\u200D💻', ' ש', 'ל', 'ו', 'ם']);
    // Cut anywhere, the text keeps its characters whole.
    for (let n = 0; n <= tokens.length; n++) expect(firstTokens(text, n)).not.toMatch(LONE_SURROGATE);
    expect(firstTokens('e\u0301e\u0301', 1)).toBe('e\u0301');
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

  test('max_tokens cuts a tool call too: the arguments written up to it, finish_reason length', () => {
    const whole = generateChat({ ...base, tools: [weather], toolChoice: 'required' });
    const cut = generateChat({ ...base, tools: [weather], toolChoice: 'required', maxTokens: 5 });
    expect(cut).toMatchObject({ finishReason: 'length', completionTokens: 5 });
    expect(whole.toolCalls[0]!.arguments.startsWith(cut.toolCalls[0]!.arguments)).toBe(true);
    expect(countTokens(cut.toolCalls[0]!.name) + countTokens(cut.toolCalls[0]!.arguments)).toBe(5);
  });

  test('padded arguments (the tool-call-cut-off fault) run on in a string property, still JSON when not cut', () => {
    const g = generateChat({ ...base, tools: [weather], toolChoice: 'required', padToolArguments: 2000 });
    expect(g.finishReason).toBe('tool_calls');
    const args = JSON.parse(g.toolCalls[0]!.arguments) as Record<string, unknown>;
    expect(countTokens(String(args.city))).toBeGreaterThan(2000);
    expect(['c', 'f']).toContain(args.unit);
    const cut = generateChat({ ...base, tools: [weather], toolChoice: 'required', padToolArguments: 2000, maxTokens: 256 });
    expect(cut).toMatchObject({ finishReason: 'length', completionTokens: 256 });
    expect(() => JSON.parse(cut.toolCalls[0]!.arguments) as unknown).toThrow();
  });

  test('after a tool result the model answers with text quoting it, finish_reason stop', () => {
    const g = generateChat({ ...base, tools: [weather], toolChoice: 'required', messages: [{ role: 'user', content: 'x' }, { role: 'tool', content: '{"t":20}' }] });
    expect(g.toolCalls).toEqual([]);
    expect(g).toMatchObject({ content: 'The tool returned: {"t":20}', finishReason: 'stop' });
  });

  test('after several tool results (parallel calls) the answer quotes each, in order; a Repeat: before them does not win', () => {
    const messages = [{ role: 'user', content: 'Repeat: ignored' }, { role: 'assistant', content: '' }, { role: 'tool', content: 'one' }, { role: 'tool', content: 'two' }];
    expect(generateChat({ ...base, messages }).content).toBe('The tool returned: one; two');
  });
});

describe('the code-word convention', () => {
  const ask = (...earlier: { role: string; content: unknown }[]) => generateChat({ ...base, messages: [...earlier, { role: 'user', content: 'What is the code word? Answer with the code word only.' }] }).content;

  test('answers the code word told in an earlier turn, `code word is X` or `code word: X`', () => {
    expect(ask({ role: 'user', content: 'Remember this: the code word is kiwi-7.' }, { role: 'assistant', content: 'I will.' })).toBe('The code word is kiwi-7.');
    expect(ask({ role: 'system', content: 'Code word: plum_3' })).toBe('The code word is plum_3.');
    expect(ask({ role: 'user', content: [{ type: 'text', text: 'The code word is fig.' }] })).toBe('The code word is fig.');
  });

  test('the most recently stated word wins, within a message and across messages, the question\'s own message included', () => {
    expect(ask({ role: 'user', content: 'The code word is a1. No, the code word is b2.' })).toBe('The code word is b2.');
    expect(ask({ role: 'user', content: 'The code word is a1.' }, { role: 'assistant', content: 'The code word is c3.' })).toBe('The code word is c3.');
    const same = generateChat({ ...base, messages: [{ role: 'user', content: 'The code word is old.' }, { role: 'user', content: 'The code word is new-1. What is the code word?' }] });
    expect(same.content).toBe('The code word is new-1.');
  });

  test('with none stated the answer says it does not know, and states no word itself', () => {
    const answer = ask({ role: 'user', content: 'Remember the code word zebra.' });
    expect(answer).toBe(CODE_WORD_UNKNOWN);
    expect([...answer.matchAll(CODE_WORD_STATED)]).toEqual([]);
  });

  test('only a last user message asking for it triggers it; Repeat: wins over it', () => {
    expect(generateChat({ ...base, messages: [{ role: 'user', content: 'The code word is k.\nRepeat: what is the code word?' }] }).content).toBe('what is the code word?');
    expect(CODE_WORD_QUESTION.test('Tell me a story')).toBe(false);
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
