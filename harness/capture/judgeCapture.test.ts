import { describe, expect, it, test } from 'vitest';
import { readFixture } from '#harness/testing/realWorld.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { detectKind, judgeCapture, judgeStream, KINDS } from './index.ts';

const { spec } = loadSpec();
/** The real captures, committed under fixtures/real-world (byte-identical copies; PROVENANCE.md). */
const read = (name: string): string => readFixture(name);
const MAP = { 'deepseek-chat': 'svc-chat', 'deepseek-reasoner': 'svc-reasoner' };

const COMPLETION = 'chat-nonstream-01-deepseek-chat-2025-03.json';

describe('detectKind', () => {
  it('tells each kind from the content', () => {
    expect(detectKind(read(COMPLETION))).toBe('chat_completion');
    expect(detectKind(read('reasoner-nonstream-01-leading-blank-lines-2026-01.json'))).toBe('chat_completion');
    expect(detectKind(read('stream-chat-02-keepalive-comment-2025-05.sse'))).toBe('chat_completion_chunk');
    expect(detectKind(read('stream-chat-04-vercel-deepseek-chat-length-2025-12.chunks.txt'))).toBe('chat_completion_chunk');
    expect(detectKind(read('models-list-01-2025-08.json'))).toBe('model_list');
    expect(detectKind(read('doc-user-balance-example.json'))).toBe('balance');
    expect(detectKind(read('doc-fim-completion-schema-example.json'))).toBe('fim_completion');
    expect(detectKind(read('error-401-01-authentication-fails-2025-04.json'))).toBe('error_envelope');
    expect(detectKind(read('error-422-01-deserialize-text-plain-2025-04.txt'))).toBe('error_envelope');
    expect(detectKind('{"id":"m","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}]}')).toBe('messages_response');
    expect(detectKind('{"object":"chat.completion.chunk","id":"x","choices":[]}')).toBe('chat_completion_chunk');
  });

  it('tells a body cut short by the object it names, and gives up on what says nothing', () => {
    expect(detectKind('{"id":"x","object":"chat.completion","choi')).toBe('chat_completion');
    for (const text of ['', '\n\n', 'hello', '{"foo":1}', '[1,2]', '42', read('PROVENANCE.md')]) expect(detectKind(text), text.slice(0, 20)).toBeUndefined();
  });
});

describe('judgeCapture', () => {
  it('a real completion: only the chatcmpl- id shape, at should; the model is noted through the map', () => {
    const v = judgeCapture(spec, read(COMPLETION), 'chat_completion', { modelMap: MAP });
    expect(v.items).toBe(1);
    expect(v.violations).toEqual([expect.objectContaining({ path: '/id', level: 'should', specRef: 'objects.chat_completion.fields.id.pattern' })]);
    expect(v.notes).toContain("model deepseek-chat is the spec's svc-chat (--model-map)");
    expect(judgeCapture(spec, read(COMPLETION), 'chat_completion').notes.join('\n')).toContain('deepseek-chat is not a spec model id');
  });

  it('skips and notes leading blank lines', () => {
    const v = judgeCapture(spec, read('reasoner-nonstream-01-leading-blank-lines-2026-01.json'), 'chat_completion');
    expect(v.violations.filter((x) => x.level === 'must')).toEqual([]);
    expect(v.notes.join('\n')).toMatch(/\d+ blank line\(s\) before the body/);
  });

  it('a stream: each chunk judged with its index; comments and [DONE] noted', () => {
    const v = judgeCapture(spec, read('stream-chat-02-keepalive-comment-2025-05.sse'), 'chat_completion_chunk');
    expect(v.items).toBeGreaterThan(10);
    expect(v.violations).toEqual([]);
    expect(v.notes).toContain('1 comment line(s) ("keep-alive"), skipped as a client skips them');
    expect(v.notes).toContain('`data: [DONE]` closes the stream');
  });

  it('a pasted stream whose [DONE] is never closed: its absence is noted', () => {
    const v = judgeCapture(spec, read('stream-chat-08-pasted-v2.5-era-2024-11.sse'), 'chat_completion_chunk');
    expect(v.notes.join('\n')).toContain('no `data: [DONE]` event');
    expect(v.notes.join('\n')).toContain('never closed by a blank line');
  });

  it('a thinking stream: null content at unspecified level, item by item, nothing stronger', () => {
    const v = judgeCapture(spec, read('stream-reasoner-03-deepseek-reasoner-2025-07.sse'), 'chat_completion_chunk');
    expect(v.violations.length).toBeGreaterThan(0);
    for (const x of v.violations) expect(x).toMatchObject({ level: 'unspecified', path: '/choices/0/delta/content', specRef: 'objects.delta.fields.content.nullable' });
    expect(v.violations[0]!.item).toBe(0);
  });

  it('a plain-text error: one must-level violation at the root, citing errors.envelope', () => {
    const v = judgeCapture(spec, read('error-422-01-deserialize-text-plain-2025-04.txt'), 'error_envelope');
    expect(v.violations).toEqual([expect.objectContaining({ path: '', level: 'must', specRef: 'errors.envelope' })]);
    expect(v.violations[0]!.message).toMatch(/not JSON/);
  });

  it('a body that is not JSON where another object was due cites that object', () => {
    const v = judgeCapture(spec, '{"object":"chat.completion"', 'chat_completion');
    expect(v.violations).toEqual([expect.objectContaining({ path: '', level: 'must', specRef: 'objects.chat_completion' })]);
  });

  it('a broken body: usage deleted is a must-level line at /usage (a missing field at its own path)', () => {
    const b = JSON.parse(read(COMPLETION)) as Record<string, unknown>;
    delete b.usage;
    const v = judgeCapture(spec, JSON.stringify(b), 'chat_completion');
    expect(v.violations).toContainEqual(expect.objectContaining({ path: '/usage', level: 'must', keyword: 'required', params: { missingProperty: 'usage' } }));
  });

  it('a stream payload that is not JSON is a must-level line for that chunk', () => {
    const chunk = '{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[]}';
    const v = judgeCapture(spec, `data: ${chunk}\n\ndata: {oops\n\ndata: [DONE]\n\n`, 'chat_completion_chunk');
    expect(v.items).toBe(2);
    expect(v.violations).toEqual([expect.objectContaining({ item: 1, path: '', level: 'must', specRef: 'streaming.framing' })]);
  });

  it('strict profile: extra fields come as strict lines', () => {
    const v = judgeCapture(spec, read(COMPLETION), 'chat_completion', { profile: 'strict' });
    expect(v.violations).toContainEqual(expect.objectContaining({ path: '/system_fingerprint', level: 'strict' }));
  });

  it('never throws on garbage, whatever kind it is judged as', () => {
    for (const kind of KINDS) {
      for (const text of ['', '\n', 'garbage', 'data: x\n\n', '{"a":', 'null', '[]', ': only a comment\n\n']) {
        expect(() => judgeCapture(spec, text, kind), `${kind} ${JSON.stringify(text)}`).not.toThrow();
      }
    }
  });
});

describe('the stream terminator', () => {
  const chunk = JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] });
  const judge = (text: string) => judgeCapture(loadSpec().spec, text, 'chat_completion_chunk');
  test('an SSE stream without `data: [DONE]` breaks it at must level', () => {
    expect(judge(`data: ${chunk}\n\n`).violations).toContainEqual(expect.objectContaining({ level: 'must', specRef: 'streaming.events.terminator' }));
  });
  test('events after [DONE] break stream.done-last', () => {
    expect(judge(`data: ${chunk}\n\ndata: [DONE]\n\ndata: ${chunk}\n\n`).violations).toContainEqual(expect.objectContaining({ level: 'must', specRef: 'streaming.rules.stream.done-last' }));
  });
  test('a line-per-chunk capture recorded no framing: its missing [DONE] is only a note', () => {
    const r = judge(`${chunk}\n${chunk}\n`);
    expect(r.violations.filter((v) => v.specRef === 'streaming.events.terminator')).toEqual([]);
    expect(r.notes.join(' ')).toContain('no `[DONE]` line');
  });
  test('an unclosed final `data: [DONE]` (a lost last blank line) is taken as the terminator, with a note', () => {
    const r = judge(`data: ${chunk}\n\ndata: [DONE]\n`);
    expect(r.violations.filter((v) => v.specRef === 'streaming.events.terminator')).toEqual([]);
    expect(r.notes.join(' ')).toContain('never closed by a blank line');
  });
});

describe('judgeStream: the same verdict, fed piece by piece', () => {
  const { spec: s } = loadSpec();
  /** The text as bytes cut every `size` bytes (cuts fall inside lines, CRLFs and UTF-8 characters). */
  async function* pieces(text: string, size: number) {
    const bytes = Buffer.from(text, 'utf8');
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  const streams = ['stream-chat-02-keepalive-comment-2025-05.sse', 'stream-chat-08-pasted-v2.5-era-2024-11.sse', 'stream-reasoner-03-deepseek-reasoner-2025-07.sse', 'stream-chat-04-vercel-deepseek-chat-length-2025-12.chunks.txt'];
  const chunk = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"svc-v4-flash","choices":[{"index":0,"delta":{"content":"h\u00e9"},"finish_reason":null}]}';
  const made = [
    `\r\n\r\n: ping\r\n\r\ndata: ${chunk}\r\n\r\nevent: x\r\ndata: {oops\r\n\r\ndata: [DONE]\r\n\r\ndata: ${chunk}\r\n\r\n`,
    `data: ${chunk}\r\rdata: ${chunk}\n\ndata: [DONE]\n`,
    `data: ${chunk}\n\n: trailing comment`,
  ];
  const cases = [...streams.map((name) => [name, read(name)] as const), ...made.map((text, i) => [`made ${i}`, text] as const)];
  test.each(cases)('%s', async (_name, text) => {
    const whole = judgeCapture(s, text, 'chat_completion_chunk', { modelMap: MAP });
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
      expect(await judgeStream(s, pieces(text, size), { modelMap: MAP }), `pieces of ${size}`).toEqual(whole);
    }
  });
});
