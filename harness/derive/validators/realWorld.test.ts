/**
 * The generated validators on real traffic: bodies recorded from the production service
 * (fixtures/real-world, byte-identical copies; provenance in fixtures/real-world/PROVENANCE.md).
 *
 * A harness that must not raise false alarms on a real endpoint, and must still catch what really
 * differs, is judged here on both counts. Every place where a real body differs from a stated rule is
 * named in KNOWN_DIFFERENCES below, with the rule, its level and a verdict, and each file's violations
 * must equal exactly what that table predicts: a new violation, a missing one, or a changed level or
 * specRef fails the test.
 */
import { describe, expect, it } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import {
  headersFileFor,
  listBodies,
  mapModelId,
  mapModelIds,
  parseBody,
  parseJsonBody,
  readFixture,
  readHeaders,
  readStream,
  PRODUCTION_MODEL_IDS,
} from '#harness/testing/realWorld.ts';
import { strongestLevel, validatorFor, type Level, type Violation } from './index.ts';

const { spec } = loadSpec();

type Profile = 'default' | 'strict';
const judge = (objectName: string, body: unknown, profile: Profile = 'default'): Violation[] =>
  validatorFor(spec, objectName, { profile })(body);

// ------------------------------------------------------------------------------------------ files
const COMPLETIONS = listBodies(/^(chat-nonstream|reasoner-nonstream|tools-nonstream|json-mode)-/);
const STREAMS = listBodies(/\.(sse|chunks\.txt)$/).filter((n) => !n.startsWith('responses-api-'));
const MODEL_LISTS = [...listBodies('models-list-'), 'doc-models-list-example.json'];
const ERRORS = listBodies('error-');
/** Error files that are wire JSON bodies of the service (the rest are handled one by one below). */
const JSON_ERRORS = ERRORS.filter((n) => n.endsWith('.json'));
const PLAIN_TEXT_422 = 'error-422-01-deserialize-text-plain-2025-04.txt';
const ISSUE_QUOTE_402 = 'error-402-01-insufficient-balance.issue-quote.txt';
const BALANCE_DOC = 'doc-user-balance-example.json';
const FIM_DOC = 'doc-fim-completion-schema-example.json';

/** Thinking-mode streams: reasoning deltas carry `content: null`. */
const THINKING_STREAMS = [
  'stream-reasoner-01-deepseek-reasoner-2026-01.sse',
  'stream-reasoner-02-reasoner-alias-v4-flash-2026-06.sse',
  'stream-reasoner-03-deepseek-reasoner-2025-07.sse',
  'stream-reasoner-04-v4-flash-hex-fingerprint-2026-08.sse',
  'stream-reasoner-05-vercel-2025-12.chunks.txt',
  'stream-reasoner-06-prism-2025-07.sse',
  'tools-stream-04-vercel-reasoner-toolcall-2025-12.chunks.txt',
];

/** A parsed body with production model ids mapped to the description's ids. */
function body(name: string): unknown {
  return mapModelIds(parseJsonBody(readFixture(name)));
}
function chunks(name: string): unknown[] {
  return readStream(name).chunks.map((c) => mapModelIds(c));
}

// -------------------------------------------------------------------------- known differences
type Verdict = 'true difference' | 'false alarm';

interface KnownDifference {
  id: string;
  /** The object the body is judged as, and the profile. */
  object: string;
  profile: Profile;
  /** Fixtures it applies to. */
  files: readonly string[];
  /** Where in a body it is expected: the JSON pointers, computed from the body's own data. */
  at: (body: any) => string[]; // any: captured bodies are arbitrary JSON read field by field
  specRef: string;
  level: Level;
  keyword: string;
  verdict: Verdict;
  why: string;
}

const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    id: 'completion-id-is-a-bare-uuid',
    object: 'chat_completion',
    profile: 'default',
    files: COMPLETIONS,
    at: () => ['/id'],
    specRef: 'objects.chat_completion.fields.id.pattern',
    level: 'should',
    keyword: 'pattern',
    verdict: 'true difference',
    why:
      'The description gives the id a `chatcmpl-<uuid>` shape (Notes column of the response table); every ' +
      'recorded id is a bare UUID. The spec grades the shape `should` (the Type column only says string), ' +
      'so a real endpoint is reported, not failed.',
  },
  {
    id: 'reasoning-delta-content-is-null',
    object: 'chat_completion_chunk',
    profile: 'default',
    files: THINKING_STREAMS,
    at: (chunk) =>
      (chunk.choices as any[]).flatMap((c, i) => (c.delta && c.delta.content === null ? [`/choices/${i}/delta/content`] : [])), // any: captured bodies are arbitrary JSON read field by field
    specRef: 'objects.delta.fields.content.nullable',
    level: 'unspecified',
    keyword: 'not',
    verdict: 'true difference',
    why:
      'The description says delta `content` carries text pieces and does not say it may be null; in thinking ' +
      'mode the service sends `content: null` beside each `reasoning_content` piece (and in the first ' +
      'chunk). The spec marks the nullability `unspecified`, so this is advisory only - the right level for ' +
      'a point the description is silent on.',
  },
];

/** The violations the table predicts for one body, as comparable keys. */
function expected(name: string, object: string, profile: Profile, b: unknown): string[] {
  const out: string[] = [];
  for (const d of KNOWN_DIFFERENCES) {
    if (d.object !== object || !d.files.includes(name)) continue;
    // A default-profile difference shows in the strict profile too (strict only adds).
    if (d.profile === 'strict' && profile !== 'strict') continue;
    for (const path of d.at(b)) out.push(key({ path, specRef: d.specRef, level: d.level, keyword: d.keyword }));
  }
  return out.sort();
}

function key(v: Pick<Violation, 'path' | 'specRef' | 'level' | 'keyword'>): string {
  return `${v.level} ${v.path} ${v.specRef} (${v.keyword})`;
}
function keys(vs: readonly Violation[], filter: (v: Violation) => boolean = () => true): string[] {
  return vs.filter(filter).map(key).sort();
}
const notStrict = (v: Violation) => v.level !== 'strict';

// ---------------------------------------------------------------------------------------- tests
describe('real-world fixtures: what is there', () => {
  it('has the bodies the tests rely on', () => {
    expect(COMPLETIONS.length).toBeGreaterThanOrEqual(27);
    expect(STREAMS.length).toBeGreaterThanOrEqual(6);
    expect(MODEL_LISTS).toHaveLength(3);
    expect(JSON_ERRORS.length).toBeGreaterThanOrEqual(7);
    expect(listBodies('responses-api-')).toEqual([]); // out of scope: an endpoint the description does not cover
  });

  it('maps every production model id in the bodies to a model of the spec', () => {
    const seen = new Set<string>();
    for (const n of COMPLETIONS) seen.add((parseJsonBody(readFixture(n)) as { model: string }).model);
    for (const n of STREAMS) for (const c of readStream(n).chunks) seen.add((c as { model: string }).model);
    for (const n of MODEL_LISTS) for (const m of (parseJsonBody(readFixture(n)) as { data: { id: string }[] }).data) seen.add(m.id);
    for (const id of seen) {
      expect(Object.keys(PRODUCTION_MODEL_IDS), `unmapped production id ${id}`).toContain(id);
      expect(Object.keys(spec.models)).toContain(mapModelId(id));
    }
    // the fixtures keep the bytes as captured; mapping happens here, not in the files
    expect(readFixture('chat-nonstream-01-deepseek-chat-2025-03.json')).toContain('"model":"deepseek-chat"');
    expect((body('chat-nonstream-01-deepseek-chat-2025-03.json') as { model: string }).model).toBe('svc-chat');
  });

  it('reads bodies that begin with blank lines, as the service sends them', () => {
    const one = parseBody(readFixture('chat-nonstream-09-leading-newline-2025-05.json'));
    const three = parseBody(readFixture('reasoner-nonstream-01-leading-blank-lines-2026-01.json'));
    expect(one).toMatchObject({ ok: true, leadingBlankLines: 1 });
    expect(three).toMatchObject({ ok: true, leadingBlankLines: 3 });
    expect(() => JSON.parse(readFixture('chat-nonstream-09-leading-newline-2025-05.json'))).not.toThrow(); // JSON allows leading whitespace
  });

  it('splits streams into chunks, counting keep-alive comments and noting [DONE]', () => {
    const keepAlive = readStream('stream-chat-02-keepalive-comment-2025-05.sse');
    expect(keepAlive.comments).toEqual(['keep-alive']);
    expect(keepAlive.done).toBe(true);
    expect(readStream('tools-stream-01-keepalive-2025-06.sse').comments).toEqual(['keep-alive']);
    for (const n of STREAMS) {
      const s = readStream(n);
      expect(s.unparsed, n).toEqual([]);
      expect(s.namedEvents, n).toEqual([]);
      expect(s.eventsAfterDone, n).toBe(0);
      expect(s.chunks.length, n).toBeGreaterThan(0);
      if (n.endsWith('.chunks.txt')) expect(s.done, n).toBe('stripped');
      else if (n === 'stream-chat-08-pasted-v2.5-era-2024-11.sse') {
        // PASTED into notes: the file ends `data: [DONE]\n` without the blank line that closes an
        // event, so an SSE parser discards that last event. A property of the paste, not of the service.
        expect(s.done, n).toBe(false);
        expect(s.unterminatedTail, n).toBe('data: [DONE]\n');
      } else expect(s.done, n).toBe(true);
    }
  });
});

describe('known differences table', () => {
  it('names each rule once, by a specRef that exists in the spec, at the strength the spec gives it', () => {
    const ids = KNOWN_DIFFERENCES.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of KNOWN_DIFFERENCES) {
      expect(d.files.length, d.id).toBeGreaterThan(0);
      const node = d.specRef.split('.').reduce<unknown>((at, k) => (at as Record<string, unknown> | undefined)?.[k], spec);
      expect(node, `${d.id}: ${d.specRef}`).toBeDefined();
      // a `nullable: unspecified` entry is its own strength; other entries carry `strength` (must when left out)
      const strength = typeof node === 'string' ? node : ((node as { strength?: string }).strength ?? 'must');
      expect(strength, d.id).toBe(d.level);
    }
  });

  it('real completion ids are bare UUIDs: the body truly differs from `chatcmpl-<uuid>`', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const n of COMPLETIONS) expect((body(n) as { id: string }).id, n).toMatch(uuid);
  });

  it('thinking-mode streams truly send delta.content = null', () => {
    for (const n of THINKING_STREAMS) {
      const nulls = chunks(n).filter((c: any) => c.choices.some((ch: any) => ch.delta.content === null)); // any: captured bodies are arbitrary JSON read field by field
      expect(nulls.length, n).toBeGreaterThan(0);
    }
    // and the others never do
    for (const n of STREAMS.filter((s) => !THINKING_STREAMS.includes(s))) {
      expect(chunks(n).some((c: any) => c.choices.some((ch: any) => ch.delta.content === null)), n).toBe(false); // any: captured bodies are arbitrary JSON read field by field
    }
  });
});

describe('default profile on real bodies', () => {
  it.each(COMPLETIONS)('%s: chat_completion, no must-level violation, exactly the known differences', (n) => {
    const b = body(n);
    const v = judge('chat_completion', b);
    expect(v.filter((x) => x.level === 'must')).toEqual([]);
    expect(keys(v)).toEqual(expected(n, 'chat_completion', 'default', b));
    expect(strongestLevel(v)).toBe('should');
  });

  it('completion ids: the exact violation (path, specRef, level)', () => {
    for (const n of COMPLETIONS) {
      const idViolations = judge('chat_completion', body(n)).filter((x) => x.path === '/id');
      expect(idViolations, n).toEqual([
        expect.objectContaining({ path: '/id', specRef: 'objects.chat_completion.fields.id.pattern', level: 'should', keyword: 'pattern' }),
      ]);
    }
  });

  it.each(STREAMS)('%s: every chunk is a chat_completion_chunk with no must-level violation', (n) => {
    for (const [i, c] of chunks(n).entries()) {
      const v = judge('chat_completion_chunk', c);
      expect(v.filter((x) => x.level === 'must'), `${n} chunk ${i}`).toEqual([]);
      expect(keys(v), `${n} chunk ${i}`).toEqual(expected(n, 'chat_completion_chunk', 'default', c));
    }
  });

  it.each(MODEL_LISTS)('%s: model_list, no violation', (n) => {
    expect(judge('model_list', body(n))).toEqual([]);
  });

  it('the balance doc example is a balance, no violation', () => {
    expect(judge('balance', body(BALANCE_DOC))).toEqual([]);
  });

  it('the fill-in-the-middle doc example is a fim_completion, no violation', () => {
    expect(judge('fim_completion', body(FIM_DOC))).toEqual([]);
  });

  it.each(JSON_ERRORS)('%s: error_envelope, no violation', (n) => {
    expect(judge('error_envelope', body(n))).toEqual([]);
  });

  it('error bodies arrive as JSON or octet-stream, except the 422, which is text/plain', () => {
    const seen: Record<string, string | undefined> = {};
    for (const n of ERRORS) {
      const h = headersFileFor(n);
      if (h !== undefined) seen[n] = readHeaders(h).contentType;
    }
    expect(Object.keys(seen).length).toBeGreaterThanOrEqual(6);
    expect(seen[PLAIN_TEXT_422]).toBe('text/plain; charset=utf-8');
    expect(seen['error-400-03-context-length-octet-stream-2026-06.json']).toBe('application/octet-stream');
    for (const [n, ct] of Object.entries(seen)) if (n !== PLAIN_TEXT_422) expect(ct, n).toMatch(/^application\/(json|octet-stream)/);
  });
});

describe('error 422: a plain-text body where the description promises JSON', () => {
  // Errors: "Error responses carry a JSON body with an `error` object ..." (errors.yaml envelope,
  // strength must). The recorded 422 is `text/plain` and not JSON at all: a must-level difference
  // of the real service (true difference). The validators only judge parsed bodies, so the test
  // states the two facts that make it one: the body does not parse, and judged as what arrived (a
  // string) it fails error_envelope at must level.
  const text = readFixture(PLAIN_TEXT_422);

  it('is recorded as a 422 with Content-Type text/plain', () => {
    expect(readHeaders('error-422-01-deserialize-text-plain-2025-04.headers.json')).toEqual({
      status: 422,
      contentType: 'text/plain; charset=utf-8',
    });
  });

  it('is not parseable JSON, so it cannot be an error envelope', () => {
    const parsed = parseBody(text);
    expect(parsed.ok).toBe(false);
    expect(text.startsWith('Failed to deserialize the JSON body')).toBe(true);
  });

  it('is a must-level difference: the envelope rule is must, and the raw body fails error_envelope at must', () => {
    expect(spec.errors.envelope).toMatchObject({ object: 'error_envelope', strength: 'must' });
    const v = judge('error_envelope', text);
    expect(v).toEqual([expect.objectContaining({ path: '', level: 'must', specRef: 'objects.error_envelope', keyword: 'type' })]);
    expect(strongestLevel(v)).toBe('must');
  });
});

describe('error 402: only an issue quote, not a wire body', () => {
  // ISSUE QUOTE: openai-python's rendering (a Python dict repr), so not judged as a body of the
  // service. SOURCES.md gives the wire form it implies; that form is a valid envelope.
  it('is not JSON as stored, and its implied wire form is an error envelope', () => {
    const text = readFixture(ISSUE_QUOTE_402);
    expect(parseBody(text).ok).toBe(false);
    const repr = text.slice(text.indexOf('{')).trim();
    const wire = JSON.parse(repr.replaceAll("'", '"').replaceAll('None', 'null')) as unknown;
    expect(wire).toEqual({ error: { message: 'Insufficient Balance', type: 'unknown_error', param: null, code: 'invalid_request_error' } });
    expect(judge('error_envelope', wire)).toEqual([]);
  });
});

describe('strict profile on real bodies', () => {
  /** Every body the default tests judge, with its object. */
  const cases: { name: string; object: string; bodies: unknown[] }[] = [
    ...COMPLETIONS.map((name) => ({ name, object: 'chat_completion', bodies: [body(name)] })),
    ...STREAMS.map((name) => ({ name, object: 'chat_completion_chunk', bodies: chunks(name) })),
    ...MODEL_LISTS.map((name) => ({ name, object: 'model_list', bodies: [body(name)] })),
    { name: BALANCE_DOC, object: 'balance', bodies: [body(BALANCE_DOC)] },
    { name: FIM_DOC, object: 'fim_completion', bodies: [body(FIM_DOC)] },
    ...JSON_ERRORS.map((name) => ({ name, object: 'error_envelope', bodies: [body(name)] })),
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s: only strict-level lines are added', (_n, c) => {
    for (const [i, b] of c.bodies.entries()) {
      const strict = judge(c.object, b, 'strict');
      const plain = judge(c.object, b, 'default');
      const where = `${c.name} #${i}`;
      // every strict-level line is an unknown field, reported at its own path, that the body has
      for (const v of strict.filter((x) => x.level === 'strict')) {
        expect(v.keyword, where).toBe('additionalProperties');
        expect(v.path.endsWith(`/${String(v.params.additionalProperty)}`), where).toBe(true);
      }
      // the other lines are the default profile's, plus the known strict-only artifact
      const extra = expected(c.name, c.object, 'strict', b).filter((k) => !expected(c.name, c.object, 'default', b).includes(k));
      expect(keys(strict, notStrict), where).toEqual([...keys(plain), ...extra].sort());
    }
  });

  it('flags the fields the description does not list: system_fingerprint, logprobs, prompt_tokens_details ...', () => {
    const paths = (name: string) => judge('chat_completion', body(name), 'strict').filter((v) => v.level === 'strict').map((v) => v.path);
    for (const n of COMPLETIONS) {
      const b = body(n) as { usage: Record<string, unknown>; choices: { message: { tool_calls?: unknown[] } }[] };
      const p = paths(n);
      expect(p, n).toContain('/system_fingerprint');
      expect(p, n).toContain('/choices/0/logprobs');
      if ('prompt_tokens_details' in b.usage) expect(p, n).toContain('/usage/prompt_tokens_details');
      if ('completion_tokens_details' in b.usage) expect(p, n).toContain('/usage/completion_tokens_details');
      for (const [i] of (b.choices[0]?.message.tool_calls ?? []).entries()) {
        for (const f of ['index', 'id', 'type']) expect(p, n).toContain(`/choices/0/message/tool_calls/${i}/${f}`);
      }
    }
    // chunks: created, model, system_fingerprint are not in the Stream chunk table; reasoning deltas
    // carry reasoning_content, whose name the description does not state
    const chunkPaths = chunks('stream-reasoner-03-deepseek-reasoner-2025-07.sse')
      .flatMap((c) => judge('chat_completion_chunk', c, 'strict'))
      .filter((v) => v.level === 'strict')
      .map((v) => v.path);
    for (const p of ['/created', '/model', '/system_fingerprint', '/choices/0/logprobs', '/choices/0/delta/reasoning_content']) {
      expect(chunkPaths).toContain(p);
    }
    // errors carry `param`
    expect(judge('error_envelope', body('error-401-01-authentication-fails-2025-04.json'), 'strict')).toEqual([
      expect.objectContaining({ path: '/error/param', level: 'strict', keyword: 'additionalProperties' }),
    ]);
  });

  it('a final chunk whose usage carries extra details gets only strict-level lines in the strict profile', () => {
    const final = chunks('stream-chat-01-deepseek-chat-2025-03.sse').at(-1) as { usage: object };
    expect(final.usage).toHaveProperty('prompt_tokens_details');
    expect(judge('chat_completion_chunk', final, 'default')).toEqual([]);
    const strict = judge('chat_completion_chunk', final, 'strict');
    expect(strict.filter(notStrict)).toEqual([]);
    expect(strict).toContainEqual(expect.objectContaining({ path: '/usage/prompt_tokens_details', level: 'strict' }));
  });
});
