import { describe, expect, test } from 'vitest';
import { HarnessError } from '#harness/core/errors/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { CheckContext, CheckResponse } from '../context.ts';
import { judgeRefusal } from './refusal.ts';
import { streamedResponse } from '#harness/testing/sseEvents.ts';
import { chunkJudge, MAX_SAMPLES, MAX_TEXT_CHARS, readStream } from './stream.ts';

const { spec } = loadSpec();
const model = Object.keys(spec.models)[0]!;

type Event = { data: string; invalidUtf8?: true };

const streamed = (events: Event[], breaks?: Error): CheckResponse => streamedResponse(events, breaks);

const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
  data: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra }),
});
const contentChunks = (n: number) => Array.from({ length: n }, (_, i) => chunk({ content: `t${i} ` }));

describe('readStream', () => {
  test('folds a stream into counts, the first and last chunk, and the assembled message', async () => {
    const s = await readStream(
      streamed([
        { data: ':keep-alive' },
        chunk({ role: 'assistant', content: '' }),
        chunk({ reasoning_content: 'think' }),
        ...contentChunks(3),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'get_', arguments: '{"ci' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { name: 'weather', arguments: 'ty":"Paris"}' } }] }),
        chunk({}, 'tool_calls', { usage: { completion_tokens: 9 } }),
        { data: '[DONE]' },
      ]),
    );
    expect(s.error).toBeUndefined();
    expect(s).toMatchObject({ chunks: 8, comments: 1, done: true, ids: { first: ['chatcmpl-1'], more: false }, finishes: { count: 1, first: [7] } });
    expect(s.first).toMatchObject({ choices: [{ delta: { role: 'assistant' } }] });
    expect(s.last).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
    expect(s.message).toEqual({
      content: { text: 't0 t1 t2 ', chars: 9 },
      reasoning: { text: 'think', chars: 5 },
      toolCalls: [{ id: 'call_1', name: { text: 'get_weather', chars: 11 }, arguments: { text: '{"city":"Paris"}', chars: 16 } }],
      moreToolCalls: false,
      finishReason: 'tool_calls',
      usage: { completion_tokens: 9 },
    });
  });

  describe('the usage carrier (streaming.yaml usage_carrier)', () => {
    const USAGE = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    const bare = (extra: object) => ({ data: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model, choices: [], ...extra }) });
    const message = [chunk({ role: 'assistant', content: '' }), ...contentChunks(2), chunk({}, 'stop')];

    test('a `choices: []` chunk with usage, last, after the final chunk: not a chunk of the message', async () => {
      const s = await readStream(streamed([...message, bare({ usage: USAGE }), { data: '[DONE]' }]));
      expect(s).toMatchObject({ chunks: 4, usageCarrier: { chunk: 4, body: { usage: USAGE } }, usageAt: { chunk: 4, withChoices: false }, finishes: { count: 1, first: [3] } });
      expect(s.last).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
      expect(s.message.usage).toEqual(USAGE);
    });

    test('a `choices: []` chunk without usage, or one not right after the final chunk, is a chunk of the message', async () => {
      const empty = await readStream(streamed([...message, bare({}), { data: '[DONE]' }]));
      expect(empty).toMatchObject({ chunks: 5, last: { choices: [] } });
      expect(empty.usageCarrier).toBeUndefined();
      // No final chunk came: the usage chunk is the message's last, not a carrier after it.
      const noFinal = await readStream(streamed([chunk({ role: 'assistant', content: '' }), ...contentChunks(2), bare({ usage: USAGE }), { data: '[DONE]' }]));
      expect(noFinal).toMatchObject({ chunks: 4, last: { choices: [], usage: USAGE } });
      expect(noFinal.usageCarrier).toBeUndefined();
      // Two of them: the last follows no final chunk, so neither is a carrier (the final chunk is not last).
      const twice = await readStream(streamed([...message, bare({ usage: USAGE }), bare({ usage: USAGE }), { data: '[DONE]' }]));
      expect(twice).toMatchObject({ chunks: 6, last: { choices: [], usage: USAGE } });
      expect(twice.usageCarrier).toBeUndefined();
    });
  });

  test('usage sent on several chunks: each one that differs from the one before is kept with its chunk, the last as the message\'s', async () => {
    const u = (completion: number, total: number) => ({ usage: { prompt_tokens: 5, completion_tokens: completion, total_tokens: total } });
    const s = await readStream(streamed([chunk({ role: 'assistant', content: '' }, null, u(0, 5)), chunk({ content: 'a' }, null, u(1, 5)), chunk({ content: 'b' }, null, u(1, 5)), chunk({}, 'stop', u(2, 7)), { data: '[DONE]' }]));
    expect(s.message.usage).toEqual(u(2, 7).usage);
    // The repeat at chunk 2 adds nothing; the last usage (chunk 3) is the message's, not an earlier one.
    expect(s.earlierUsage).toEqual({ count: 2, first: [{ chunk: 0, usage: u(0, 5).usage }, { chunk: 2, usage: u(1, 5).usage }] });
  });

  test('tool-call deltas without `index` (the description shows none): each goes on with the call before it, a new `id` starts the next', async () => {
    const s = await readStream(
      streamed([
        chunk({ role: 'assistant', content: '' }),
        chunk({ tool_calls: [{ id: 'call_1', function: { name: 'get_weather', arguments: '' } }] }),
        chunk({ tool_calls: [{ function: { arguments: '{"city":' } }] }),
        chunk({ tool_calls: [{ function: { arguments: '"Paris"}' } }] }),
        chunk({ tool_calls: [{ id: 'call_2', function: { name: 'get_time', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
        { data: '[DONE]' },
      ]),
    );
    expect(s.message.toolCalls.map((c) => [c.id, c.name.text, c.arguments.text])).toEqual([
      ['call_1', 'get_weather', '{"city":"Paris"}'],
      ['call_2', 'get_time', '{}'],
    ]);
  });

  test('keeps samples and counts, never every event: odd events, ids, finish reasons, text', async () => {
    const n = 3 * MAX_SAMPLES;
    const s = await readStream(
      streamed([
        ...Array.from({ length: n }, (_, i) => ({ data: `{not json ${i}` })),
        ...Array.from({ length: n }, (_, i) => ({ data: JSON.stringify({ id: `c${i}`, choices: [{ delta: { content: 'x'.repeat(4096) }, finish_reason: 'stop' }] }) })),
        { data: '[DONE]' },
        ...Array.from({ length: n }, () => ({ data: 'after' })),
      ]),
    );
    expect(s.malformed.count).toBe(n);
    expect(s.malformed.first).toHaveLength(MAX_SAMPLES);
    expect(s.malformed.first[0]).toBe('{not json 0');
    expect(s.afterDone).toMatchObject({ count: n });
    expect(s.afterDone.first).toHaveLength(MAX_SAMPLES);
    expect(s.ids.first).toHaveLength(MAX_SAMPLES);
    expect(s.ids.more).toBe(true);
    expect(s.finishes.count).toBe(n);
    expect(s.finishes.first).toHaveLength(MAX_SAMPLES);
    expect(s.message.content.chars).toBe(n * 4096);
    expect(s.message.content.text).toHaveLength(MAX_TEXT_CHARS);
  });

  test('an event whose bytes were not UTF-8 is malformed, whatever it parses to', async () => {
    const s = await readStream(streamed([{ ...chunk({ content: 'caf\uFFFD' }), invalidUtf8: true }, { data: '[DONE]' }]));
    expect(s.chunks).toBe(0);
    expect(s.malformed.count).toBe(1);
    expect(s.malformed.first[0]).toMatch(/^\(not valid UTF-8\) /);
  });

  test('a stream that broke off keeps what arrived and says why', async () => {
    const s = await readStream(streamed([chunk({ role: 'assistant', content: '' }), ...contentChunks(2)], new Error('HARNESS_RESET: connection reset')));
    expect(s).toMatchObject({ chunks: 3, done: false, error: 'HARNESS_RESET: connection reset' });
    expect(s.message.content.text).toBe('t0 t1 ');
  });

  test('an error event instead of the rest of the stream is a break', async () => {
    const s = await readStream(streamed([chunk({ role: 'assistant', content: '' }), { data: '{"error":{"message":"overloaded"}}' }]));
    expect(s.errorEvents.count).toBe(1);
    expect(s.error).toMatch(/error event instead of a chunk, and no `data: \[DONE\]`: .*overloaded/);
  });

  test('with a judge, each chunk is judged on arrival: violations by level with their chunk index, bounded', async () => {
    const bad = (i: number) => ({ data: JSON.stringify({ id: `chatcmpl-${i}`, object: 'chat.completion', created: 1, model, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] }) });
    const n = 2 * MAX_SAMPLES;
    const s = await readStream(streamed([chunk({ role: 'assistant', content: '' }), ...Array.from({ length: n }, (_, i) => bad(i)), chunk({}, 'stop'), { data: '[DONE]' }]), { judge: chunkJudge(spec, false) });
    const must = s.violations?.must;
    expect(must?.count).toBe(n);
    expect(must?.first).toHaveLength(MAX_SAMPLES);
    expect(must?.first[0]).toMatchObject({ chunk: 1, path: '/object' });
    expect(s.violations?.strict).toBeUndefined();
  });

  test('the strict judge adds fields the description does not list, at level strict', async () => {
    const s = await readStream(streamed([chunk({ role: 'assistant', content: '' }, null, { surprise: 1 }), { data: '[DONE]' }]), { judge: chunkJudge(spec, true) });
    expect(s.violations?.strict?.first).toContainEqual(expect.objectContaining({ chunk: 0, path: '/surprise', level: 'strict' }));
    expect(s.violations?.must).toBeUndefined();
  });
});

describe('judgeRefusal reads the body as JSON, so an unreadable body is a failure with its cause', () => {
  const ctx = { judge: () => [] } as unknown as CheckContext;
  const refused = (json: () => Promise<unknown>): CheckResponse => ({ ...streamed([]), status: 400, json });

  test('bytes that are not UTF-8: the cause is in the failure', async () => {
    const why = new Error('response body is not JSON (it is not valid UTF-8: byte 0xC3 at offset 17) — POST http://x/chat/completions');
    const failures = await judgeRefusal(ctx, refused(() => Promise.reject(why)), { status: 400 }, 'an empty messages list');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.message).toMatch(/refused with 400; the description says errors carry a JSON body, but response body is not JSON \(it is not valid UTF-8: byte 0xC3/);
    expect(failures[0]!.specRef).toBe('errors.envelope');
  });

  test('a harness error (reset, timeout) is thrown on: the check ends in error, not in a verdict on the body', async () => {
    await expect(judgeRefusal(ctx, refused(() => Promise.reject(new HarnessError('HARNESS_RESET', 'connection reset'))), { status: 400 }, 'x')).rejects.toThrow(/connection reset/);
  });

  test('a readable envelope is judged as before', async () => {
    const failures = await judgeRefusal(ctx, refused(() => Promise.resolve({ error: { message: 'bad' } })), { status: 400 }, 'x');
    expect(failures).toEqual([]);
  });
});
