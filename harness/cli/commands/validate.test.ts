import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from '../main.ts';
import { fixturePath, listFixtures } from '#harness/testing/realWorld.ts';

/** The real captures, committed under fixtures/real-world (byte-identical copies; PROVENANCE.md). */
const capture = (name: string): string => fixturePath(name);
const MAP = 'deepseek-chat=svc-chat,deepseek-reasoner=svc-reasoner';

/** Every capture that is a body of the chat-completion service (the Responses API is not in the description). */
const FILES = listFixtures()
  .filter((n) => !n.endsWith('.md') && !n.endsWith('.headers.json') && !n.startsWith('responses-api-'))
  .sort();

/** Real bodies that break a must-level rule: the plain-text 422, and the 402 issue quote (a Python repr in a sentence). */
const EXIT_1 = new Set(['error-422-01-deserialize-text-plain-2025-04.txt', 'error-402-01-insufficient-balance.issue-quote.txt']);
/**
 * ISSUE QUOTE files: real error text pasted into issues. Neither is "kind cannot be told": the JSON one
 * is an error envelope (its extra LobeChat keys show only with --strict), the text one reads as an
 * error and is not JSON.
 */
const ISSUE_QUOTES = { 'error-400-05-missing-reasoning-content.issue-quote.json': 0, 'error-402-01-insufficient-balance.issue-quote.txt': 1 };

const dir = mkdtempSync(join(tmpdir(), 'svc-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function validate(...args: string[]): Promise<{ code: number; out: string[]; err: string }> {
  const io = captureIO();
  const code = await main(['validate', ...args], io);
  return { code, out: io.out, err: io.err.join('\n') };
}

describe('svc-conformance validate: every real capture gets a verdict', () => {
  it('lists the captures it judges', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(60);
    expect(FILES.filter((n) => n.includes('.issue-quote.'))).toEqual(Object.keys(ISSUE_QUOTES).sort());
  });

  it.each(FILES)('%s', async (name) => {
    const { code, out, err } = await validate(capture(name), '--model-map', MAP);
    expect(err).toBe('');
    expect(code).toBe(EXIT_1.has(name) ? 1 : 0);
    expect(out.at(-1)).toMatch(new RegExp(`^${capture(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: [a-z_]+, \\d+ violation\\(s\\): \\d+ must, \\d+ should, \\d+ unspecified$`));
  });

  it('issue quotes: the verdicts they really get', async () => {
    for (const [name, exit] of Object.entries(ISSUE_QUOTES)) expect((await validate(capture(name))).code, name).toBe(exit);
  });
});

describe('known verdicts', () => {
  it('a real completion exits 0, with the chatcmpl- id shape at should', async () => {
    const file = capture('chat-nonstream-01-deepseek-chat-2025-03.json');
    const { code, out } = await validate(file, '--model-map', MAP);
    expect(code).toBe(0);
    expect(out[0]).toMatch(/ \/id should must match pattern "\^chatcmpl-.*\(objects\.chat_completion\.fields\.id\.pattern\)$/);
    expect(out).toContain(`${file}: note: model deepseek-chat is the spec's svc-chat (--model-map)`);
    expect(out.at(-1)).toBe(`${file}: chat_completion, 1 violation(s): 0 must, 1 should, 0 unspecified`);
  });

  it("a captured id holding a comma, a slash or a colon is mapped either way round (issue 49), one pair per flag", async () => {
    const body = readFileSync(capture('chat-nonstream-01-deepseek-chat-2025-03.json'), 'utf8');
    for (const [id, args] of [
      ['emu,deepseek-chat', ['--model-map', 'emu,deepseek-chat=svc-chat']],
      ['openrouter/deepseek/deepseek-chat', ['--model-map', 'svc-chat=openrouter/deepseek/deepseek-chat']],
      ['ollama:deepseek-chat', ['--model-map', 'deepseek-reasoner=svc-reasoner', '--model-map', 'ollama:deepseek-chat=svc-chat']],
    ] as const) {
      const file = join(dir, `renamed-${id.replace(/\W/g, '-')}.json`);
      writeFileSync(file, body.replace('"model": "deepseek-chat"', `"model": ${JSON.stringify(id)}`).replace('"model":"deepseek-chat"', `"model":${JSON.stringify(id)}`));
      expect(readFileSync(file, 'utf8')).toContain(id);
      const { out } = await validate(file, ...args);
      expect(out).toContain(`${file}: note: model ${id} is the spec's svc-chat (--model-map)`);
    }
  });

  it('the plain-text 422 exits 1: must, not JSON', async () => {
    const file = capture('error-422-01-deserialize-text-plain-2025-04.txt');
    const { code, out } = await validate(file);
    expect(code).toBe(1);
    expect(out[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(root\\) must body is not JSON .*\\(errors\\.envelope\\)$`));
    expect(out.at(-1)).toBe(`${file}: error_envelope, 1 violation(s): 1 must, 0 should, 0 unspecified`);
  });

  it('a thinking stream exits 0 with unspecified-level null-content lines, one per chunk', async () => {
    const file = capture('stream-reasoner-03-deepseek-reasoner-2025-07.sse');
    const { code, out } = await validate(file);
    expect(code).toBe(0);
    expect(out[0]).toBe(`${file}#0 /choices/0/delta/content unspecified must not be null (null is not stated for this field) (objects.delta.fields.content.nullable)`);
    expect(out).toContain(`${file}: note: \`data: [DONE]\` closes the stream`);
    expect(out.at(-1)).toMatch(/: chat_completion_chunk, (\d+) violation\(s\): 0 must, 0 should, \1 unspecified$/);
  });
});

describe('failures and input errors', () => {
  it('a broken body (usage deleted) exits 1, naming /usage at must', async () => {
    const body = JSON.parse(readFileSync(capture('chat-nonstream-01-deepseek-chat-2025-03.json'), 'utf8')) as Record<string, unknown>;
    delete body.usage;
    const file = join(dir, 'no-usage.json');
    writeFileSync(file, JSON.stringify(body));
    const { code, out } = await validate(file);
    expect(code).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} /usage must missing required field \`usage\``)));
  });

  it('what run judges of a body, validate judges too: a total that is not the sum of its parts exits 1 at must, in a body and in a chunk', async () => {
    const body = JSON.parse(readFileSync(capture('chat-nonstream-01-deepseek-chat-2025-03.json'), 'utf8')) as { usage: Record<string, number> };
    const { prompt_tokens: p, completion_tokens: c } = body.usage as { prompt_tokens: number; completion_tokens: number };
    body.usage.total_tokens = p! + c! + 1;
    const file = join(dir, 'total-off.json');
    writeFileSync(file, JSON.stringify(body));
    const { code, out } = await validate(file);
    expect(code).toBe(1);
    expect(out).toContain(`${file} /usage must prompt_tokens ${p} + completion_tokens ${c} = ${p! + c!}, but total_tokens is ${p! + c! + 1} (meanings.usage-total-is-sum)`);
    const chunk = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'svc-v4-flash', choices: [], usage: { prompt_tokens: 3, completion_tokens: 16, total_tokens: 20 } };
    const stream = join(dir, 'total-off.sse');
    writeFileSync(stream, `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
    const streamed = await validate(stream);
    expect(streamed.code).toBe(1);
    expect(streamed.out).toContainEqual(expect.stringMatching(/#0 \/usage must prompt_tokens 3 \+ completion_tokens 16 = 19, but total_tokens is 20 \(meanings\.usage-total-is-sum\)$/));
  });

  it('an empty stream given as chunks is a must violation, not "0 violations"', async () => {
    const file = join(dir, 'empty.sse');
    writeFileSync(file, '');
    const { code, out } = await validate('--kind', 'chat_completion_chunk', file);
    expect(code).toBe(1);
    expect(out).toContain(`${file} (root) must the stream carries no chunk: no first chunk with the role, no final chunk with finish_reason (streaming.events.first_chunk)`);
  });

  it('an unreadable file exits 2, naming it', async () => {
    const { code, err, out } = await validate(join(dir, 'nope.json'));
    expect(code).toBe(2);
    expect(err).toMatch(/^validate: cannot read .*nope\.json: ENOENT/);
    expect(out).toEqual([]);
  });

  it('a body whose kind cannot be told exits 2 and says to pass --kind; with --kind it is judged', async () => {
    const file = join(dir, 'mystery.json');
    writeFileSync(file, '{"hello":"world"}');
    const { code, err } = await validate(file);
    expect(code).toBe(2);
    expect(err).toContain('cannot tell what kind of body this is');
    expect(err).toContain('Pass --kind, one of chat_completion, chat_completion_chunk');
    expect((await validate(file, '--kind', 'balance')).code).toBe(1);
  });

  it('exit 2 wins over 1 and 0 across several files, and every file is still judged', async () => {
    const { code, out } = await validate(capture('error-422-01-deserialize-text-plain-2025-04.txt'), join(dir, 'nope.json'), capture('models-list-01-2025-08.json'));
    expect(code).toBe(2);
    expect(out.filter((l) => / violation\(s\): /.test(l))).toHaveLength(2);
  });

  it('a bad --kind is a usage error listing the kinds', async () => {
    const { code, err } = await validate(capture('models-list-01-2025-08.json'), '--kind', 'completion');
    expect(code).toBe(2);
    expect(err).toContain('--kind must be one of chat_completion, chat_completion_chunk, model_list, balance, fim_completion, messages_response, error_envelope');
  });

  it('no file, or a malformed --model-map, is a usage error', async () => {
    expect((await validate()).code).toBe(2);
    expect((await validate(capture('models-list-01-2025-08.json'), '--model-map', 'deepseek-chat')).err).toContain('--model-map takes');
  });
});

describe('--strict', () => {
  it('makes a real completion exit 1: its should line and its extra fields (strict lines) count', async () => {
    const file = capture('chat-nonstream-01-deepseek-chat-2025-03.json');
    const { code, out } = await validate(file, '--strict');
    expect(code).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(/ \/system_fingerprint strict field `system_fingerprint` is not in the description/));
    expect(out.at(-1)).toMatch(/: chat_completion, \d+ violation\(s\): 0 must, 1 should, 0 unspecified, \d+ strict$/);
  });

  it('strict lines alone fail: an error envelope whose only extra is `param`', async () => {
    const { code, out } = await validate(capture('error-401-01-authentication-fails-2025-04.json'), '--strict');
    expect(code).toBe(1);
    expect(out.at(-1)).toMatch(/0 must, 0 should, 0 unspecified, 1 strict$/);
  });

  it('keeps unspecified lines apart: a thinking stream fails --strict on its strict lines only', async () => {
    const { code, out } = await validate(capture('stream-reasoner-03-deepseek-reasoner-2025-07.sse'), '--strict');
    expect(code).toBe(1);
    expect(out.at(-1)).toMatch(/0 must, 0 should, \d+ unspecified, \d+ strict$/);
  });
});

describe('help', () => {
  it('documents usage, kinds, options and exit codes', async () => {
    const io = captureIO();
    expect(await main(['validate', '--help'], io)).toBe(0);
    const help = io.out.join('\n');
    for (const word of ['Usage: svc-conformance validate FILE...', 'chat_completion_chunk', 'messages_response', '--model-map', '--strict', 'Exit codes']) expect(help).toContain(word);
  });
});
