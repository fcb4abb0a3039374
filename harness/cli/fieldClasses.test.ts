import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { startEmulator, type RunningEmulator } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { FIELD_CLASS_HEADER, startFieldProxy, type FieldClass, type FieldProxy } from '#harness/testing/fieldProxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * docs/field.md, the extra classes of issue 47 item 7: each bug class reported against servers and
 * gateways, put in front of the emulator by a proxy that answers as the reported server does. A
 * class that breaks the description fails the check its row names, at the strength its basis gives;
 * a class the description allows leaves its run green. One emulator and one proxy serve every run,
 * each run naming its class by a header.
 */
const { spec } = loadSpec();
const tmp = tempDirs('svc-field-classes-');
const NOW = '2026-06-01T00:00:00Z';
const KEY = 'sk-field-classes-key';
const KEY_VAR = 'SVC_FIELD_CLASSES_KEY';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const choicesOf = (body: unknown): Json[] => (isObject(body) && Array.isArray(body.choices) ? body.choices.filter(isObject) : []);
const messageOf = (choice: Json): Json | undefined => (isObject(choice.message) ? choice.message : undefined);
const deltaOf = (choice: Json): Json | undefined => (isObject(choice.delta) ? choice.delta : undefined);
const toolCallsOf = (m: Json | undefined): Json[] => (m && Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObject) : []);
const functionOf = (call: Json): Json | undefined => (isObject(call.function) ? call.function : undefined);

/** Each call's `arguments` rewritten, in a completion body and in a stream. */
const rewriteArguments = (rewrite: (args: string) => string): FieldClass => ({
  stream: (chunks) => restreamArguments(rewrite)(chunks),
  body: (body) => {
    for (const c of choicesOf(body)) for (const call of toolCallsOf(messageOf(c))) {
      const fn = functionOf(call);
      if (fn && typeof fn.arguments === 'string') fn.arguments = rewrite(fn.arguments);
    }
    return body;
  },
});

/** The index of the stream's final chunk (the last carrying a finish_reason), or -1. */
const finalIndex = (chunks: unknown[]): number => chunks.findLastIndex((c) => choicesOf(c).some((ch) => ch.finish_reason !== null && ch.finish_reason !== undefined));

/** Fields of a chat request beside the model, the messages, `max_tokens` and `stream`: a gateway routing on them sends such requests elsewhere. */
const tunes = (request: unknown): boolean => isObject(request) && Object.keys(request).some((k) => !['model', 'messages', 'stream', 'stream_options', 'max_tokens'].includes(k));

/** In a stream, each tool call's arguments (its pieces joined) rewritten: the first piece carries them all, the rest none. */
const restreamArguments = (rewrite: (args: string) => string) => (chunks: unknown[]): unknown[] => {
  const pieces = new Map<number, Json[]>();
  for (const chunk of chunks) for (const c of choicesOf(chunk)) for (const call of toolCallsOf(deltaOf(c))) {
    const fn = functionOf(call);
    if (fn && typeof fn.arguments === 'string') pieces.set(typeof call.index === 'number' ? call.index : 0, [...(pieces.get(typeof call.index === 'number' ? call.index : 0) ?? []), fn]);
  }
  for (const fns of pieces.values()) {
    const whole = fns.map((fn) => fn.arguments as string).join('');
    fns.forEach((fn, i) => (fn.arguments = i === 0 ? rewrite(whole) : ''));
  }
  return chunks;
};

/** The classes, by the name a run sends in FIELD_CLASS_HEADER. */
const CLASSES = new Map<string, FieldClass>([
  // A FastAPI app's own 422 shape (`{"detail": [...]}`) on every refusal, instead of the error envelope.
  [
    'fastapi-detail',
    {
      body: (body, status) => (status >= 400 && isObject(body) && 'error' in body ? { detail: [{ type: 'missing', loc: ['body', 'messages'], msg: 'Field required', input: null }] } : body),
    },
  ],
  // The legacy `function_call` shape: the call as `message.function_call`, finish_reason "function_call", no `tool_calls`.
  [
    'legacy-function-call',
    {
      body: (body) => {
        for (const c of choicesOf(body)) {
          const m = messageOf(c);
          const calls = toolCallsOf(m);
          if (!m || calls.length === 0) continue;
          m.function_call = functionOf(calls[0]!);
          delete m.tool_calls;
          c.finish_reason = 'function_call';
        }
        return body;
      },
      stream: (chunks) => {
        for (const chunk of chunks) for (const c of choicesOf(chunk)) {
          const d = deltaOf(c);
          const calls = toolCallsOf(d);
          if (d && calls.length > 0) {
            d.function_call = functionOf(calls[0]!);
            delete d.tool_calls;
          }
          if (c.finish_reason === 'tool_calls') c.finish_reason = 'function_call';
        }
        return chunks;
      },
    },
  ],
  // Tool arguments double-encoded: a JSON string holding the JSON string of the arguments.
  ['tool-arguments-double-encoded', rewriteArguments((args) => JSON.stringify(args))],
  // Tool arguments cut: half of the arguments' text, with finish_reason still "tool_calls".
  ['tool-arguments-cut', rewriteArguments((args) => args.slice(0, Math.floor(args.length / 2)))],
  // The cache split dropped from some completions' usage: those of requests that tune sampling, which
  // a gateway routes to a provider that does not send it (the plain completion keeps it).
  [
    'cache-fields-intermittent',
    {
      body: (body, _status, request) => {
        if (isObject(body) && isObject(body.usage) && tunes(request)) {
          delete body.usage.prompt_cache_hit_tokens;
          delete body.usage.prompt_cache_miss_tokens;
        }
        return body;
      },
    },
  ],
  // Usage sent twice in a stream: the final chunk's usage also on the chunk before it (a client summing counts it twice).
  [
    'usage-twice',
    {
      stream: (chunks) => {
        const at = finalIndex(chunks);
        const usage = at > 0 && isObject(chunks[at]) ? (chunks[at] as Json).usage : undefined;
        if (isObject(usage) && isObject(chunks[at - 1])) (chunks[at - 1] as Json).usage = { ...usage };
        return chunks;
      },
    },
  ],
  // Usage on every chunk, running (as vLLM's continuous usage stats): the final usage's prompt, the completion tokens so far.
  [
    'usage-every-chunk',
    {
      stream: (chunks) => {
        const at = finalIndex(chunks);
        const final = isObject(chunks[at]) ? (chunks[at] as Json).usage : undefined;
        if (!isObject(final) || typeof final.prompt_tokens !== 'number' || typeof final.completion_tokens !== 'number') return chunks;
        const prompt = final.prompt_tokens;
        const { prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: miss } = final;
        chunks.forEach((chunk, i) => {
          if (!isObject(chunk) || isObject(chunk.usage)) return;
          const completion = Math.min(i, final.completion_tokens as number);
          chunk.usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: miss };
        });
        return chunks;
      },
    },
  ],
  // `role: "assistant"` in every chunk's delta, the final chunk's too (as Ollama streams).
  [
    'role-every-chunk',
    {
      stream: (chunks) => {
        for (const chunk of chunks) for (const c of choicesOf(chunk)) if (deltaOf(c)) deltaOf(c)!.role = 'assistant';
        return chunks;
      },
    },
  ],
  // `role: "assistant"` repeated in every content chunk, the final chunk's delta left empty.
  [
    'role-every-content-chunk',
    {
      stream: (chunks) => {
        const at = finalIndex(chunks);
        chunks.forEach((chunk, i) => {
          if (i !== at) for (const c of choicesOf(chunk)) if (deltaOf(c)) deltaOf(c)!.role = 'assistant';
        });
        return chunks;
      },
    },
  ],
  // `content: null` beside tool calls, in bodies and in the stream's tool-call deltas.
  [
    'content-null-beside-tools',
    {
      body: (body) => {
        for (const c of choicesOf(body)) {
          const m = messageOf(c);
          if (m && toolCallsOf(m).length > 0) m.content = null;
        }
        return body;
      },
      stream: (chunks) => {
        for (const chunk of chunks) for (const c of choicesOf(chunk)) {
          const d = deltaOf(c);
          if (d && toolCallsOf(d).length > 0) d.content = null;
        }
        return chunks;
      },
    },
  ],
  // Usage on every chunk whose running total leaves out the completion so far: only the last usage adds up.
  [
    'usage-every-chunk-miscounted',
    {
      stream: (chunks) => {
        const at = finalIndex(chunks);
        const final = isObject(chunks[at]) ? (chunks[at] as Json).usage : undefined;
        if (!isObject(final) || typeof final.prompt_tokens !== 'number') return chunks;
        const prompt = final.prompt_tokens;
        chunks.forEach((chunk, i) => {
          if (!isObject(chunk) || isObject(chunk.usage)) return;
          chunk.usage = { prompt_tokens: prompt, completion_tokens: i + 1, total_tokens: prompt };
        });
        return chunks;
      },
    },
  ],
]);

/** Each class's run: the checks it selects (`--only`). */
const RUNS: Record<string, string[]> = {
  'fastapi-detail': ['schema.error-envelope.matches-schema'],
  'legacy-function-call': ['rule.chat.tool-choice.required-forces-call', 'rule.chat.tool-choice.required-forces-call.streamed'],
  'tool-arguments-double-encoded': ['rule.chat.tools.arguments-are-json', 'rule.chat.tools.arguments-are-json.streamed'],
  'tool-arguments-cut': ['rule.chat.tools.arguments-are-json', 'rule.chat.tools.arguments-are-json.streamed'],
  'cache-fields-intermittent': ['schema.chat-completion.matches-schema', 'property.valid-requests.accepted'],
  'usage-twice': ['stream.*', 'usage.stream-*', 'schema.stream-chunk.*'],
  'usage-every-chunk': ['stream.*', 'usage.stream-*', 'schema.stream-chunk.*'],
  'usage-every-chunk-miscounted': ['usage.stream-*'],
  'role-every-chunk': ['stream.events.*', 'stream.chunks.*'],
  'role-every-content-chunk': ['stream.events.*', 'stream.chunks.*'],
  'content-null-beside-tools': ['rule.chat.tool-choice.*', 'rule.chat.tools.*', 'schema.chat-completion.*', 'stream.assembled.tool-calls-add-up'],
};

let emu: RunningEmulator;
let proxy: FieldProxy;
const runs = new Map<string, { code: number; results: CheckResult[] }>();

beforeAll(async () => {
  emu = await startEmulator({ spec, apiKeys: [KEY], now: () => new Date(NOW), streamIntervalMs: 0 });
  proxy = await startFieldProxy(emu.url, CLASSES);
  process.env[KEY_VAR] = KEY;
  await Promise.all(
    Object.entries(RUNS).map(async ([name, only]) => {
      const dir = tmp();
      const code = await main(['run', '--base-url', proxy.url, '--api-key-env', KEY_VAR, '--now', NOW, '--model', 'svc-v4-flash', '--only', only.join(','), '--header', `${FIELD_CLASS_HEADER}: ${name}`, '--runs', '20', '--seed', '1', '--clients', 'none', '--quiet', '--report-dir', dir, '--json', join(dir, 'all.json')], captureIO());
      const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { records: { results: CheckResult[] }[] };
      runs.set(name, { code, results: all.records.flatMap((r) => r.results) });
    }),
  );
}, 60_000);
afterAll(async () => {
  delete process.env[KEY_VAR];
  await proxy?.close();
  await emu?.close();
});

const resultOf = (name: string, check: string) => runs.get(name)!.results.find((r) => r.checkId === check);
const failedAt = (name: string, severity: string) => runs.get(name)!.results.filter((r) => r.verdict === 'fail' && r.severity === severity).map((r) => r.checkId);

test('every class changed some answers of its run', () => {
  for (const name of Object.keys(RUNS)) expect(proxy.changed(name), name).toBeGreaterThan(0);
});

describe('classes the description forbids fail the check their row names, at its strength', () => {
  test('a FastAPI `{"detail": [...]}` refusal fails the error envelope at must', () => {
        expect(resultOf('fastapi-detail', 'schema.error-envelope.matches-schema')).toMatchObject({ verdict: 'fail', severity: 'must' });
    expect(runs.get('fastapi-detail')!.code).toBe(1);
  });

  test('the legacy `function_call` shape fails the forced tool call at must, bodies and streams', () => {
    expect(resultOf('legacy-function-call', 'rule.chat.tool-choice.required-forces-call')).toMatchObject({ verdict: 'fail', severity: 'must' });
    expect(resultOf('legacy-function-call', 'rule.chat.tool-choice.required-forces-call.streamed')).toMatchObject({ verdict: 'fail', severity: 'must' });
    expect(runs.get('legacy-function-call')!.code).toBe(1);
  });

  test('tool arguments double-encoded or cut fail the arguments check at should (advised), and no must-check', () => {
    for (const name of ['tool-arguments-double-encoded', 'tool-arguments-cut']) {
      expect(resultOf(name, 'rule.chat.tools.arguments-are-json'), name).toMatchObject({ verdict: 'fail', severity: 'should' });
      expect(resultOf(name, 'rule.chat.tools.arguments-are-json.streamed'), name).toMatchObject({ verdict: 'fail', severity: 'should' });
      expect(failedAt(name, 'must'), name).toEqual([]);
    }
  });

  test('cache fields dropped from some completions fail the usage shape at must, on the drawn requests', () => {
    // The one plain completion keeps its cache split, so the check of that one answer holds; every
    // drawn valid request's answer is judged, and those that tune sampling lack it.
    expect(resultOf('cache-fields-intermittent', 'schema.chat-completion.matches-schema')).toMatchObject({ verdict: 'pass' });
    expect(resultOf('cache-fields-intermittent', 'property.valid-requests.accepted')).toMatchObject({ verdict: 'fail', severity: 'must' });
    expect(runs.get('cache-fields-intermittent')!.code).toBe(1);
  });

  test('usage on every chunk fails the stream total at must where an earlier one does not add up, the last one adding up', () => {
    const r = resultOf('usage-every-chunk-miscounted', 'usage.stream-total.equals-prompt-plus-completion');
    expect(r).toMatchObject({ verdict: 'fail', severity: 'must' });
    expect(r?.failures?.[0]?.message).toMatch(/^the stream's usage at chunk \d+: /);
    expect(runs.get('usage-every-chunk-miscounted')!.code).toBe(1);
  });

  test('role repeated into the final chunk fails its empty delta at must', () => {
    expect(resultOf('role-every-chunk', 'stream.events.final-chunk-has-finish-reason')).toMatchObject({ verdict: 'fail', severity: 'must' });
    expect(resultOf('role-every-chunk', 'stream.events.first-chunk-has-role')).toMatchObject({ verdict: 'pass' });
  });
});

describe('classes the description allows leave the run green', () => {
  test.each(['usage-twice', 'usage-every-chunk', 'role-every-content-chunk', 'content-null-beside-tools'])('%s', (name) => {
    expect(failedAt(name, 'must')).toEqual([]);
    expect(failedAt(name, 'should')).toEqual([]);
    expect(runs.get(name)!.code).toBe(0);
  });
});
