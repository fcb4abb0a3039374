import { beforeAll, describe, expect, test } from 'vitest';
import { buildRegistry } from '#harness/checks/index.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { mustFailures, runMutated, type MutatedRun } from '#harness/testing/mutatedRuns.ts';

/**
 * Empty where the description needs something (issue 39): an endpoint answering each of these
 * through a proxy in front of the emulator fails the check that judges it, at must, naming the place.
 */
const { spec } = loadSpec();
const NOW = '2026-06-01T00:00:00Z';
const registry = buildRegistry(spec);

type Json = Record<string, unknown>;
/** Each choice of a body (or chunk) that is an object. */
const choices = (b: unknown): Json[] => (isRecord(b) && Array.isArray(b.choices) ? b.choices.filter(isRecord) : []);
/** Each message of a completion's choices that is an object. */
const messages = (b: unknown): Json[] => choices(b).map((c) => c.message).filter(isRecord);
/** Sets a field of an answer that is an object; whether it is one. */
const set = (b: unknown, key: string, value: unknown): boolean => {
  if (!isRecord(b)) return false;
  b[key] = value;
  return true;
};

interface Case {
  name: string;
  object: string;
  /** Changes the answer in place; true when it changed something. */
  rewrite(answer: unknown): boolean;
  check: string;
  path: string;
  message: RegExp;
  /** Also run, and expected to pass: what stays valid. */
  passes?: string[];
}

const CASES: Case[] = [
  { name: 'FIM choices empty', object: 'fim_completion', rewrite: (b) => set(b, 'choices', []), check: 'schema.fim-completion.matches-schema', path: '/choices', message: /^\/choices: must NOT have fewer than 1 items$/ },
  { name: 'messages content empty', object: 'messages_response', rewrite: (b) => set(b, 'content', []), check: 'schema.messages-response.matches-schema', path: '/content', message: /^\/content: must NOT have fewer than 1 items$/ },
  {
    name: '`tool_calls` empty with finish_reason `tool_calls`',
    object: 'chat_completion',
    rewrite: (b) => {
      for (const c of choices(b)) c.finish_reason = 'tool_calls';
      for (const m of messages(b)) m.tool_calls = [];
      return messages(b).length > 0;
    },
    check: 'schema.chat-completion.matches-schema',
    path: '/choices/0/message/tool_calls',
    message: /^\/choices\/0\/message\/tool_calls: must NOT have fewer than 1 items$/,
  },
  {
    name: 'stream chunks without choices',
    object: 'chat_completion_chunk',
    rewrite: (c) => set(c, 'choices', []),
    check: 'stream.chunks.carry-a-choice',
    path: '/choices',
    message: /^none of the \d+ chunk\(s\) carries a choice: `choices` is \[\] in the first and \[\] in the last/,
    // Each chunk alone may carry `choices: []` (a usage-only chunk does): the chunk schema holds.
    passes: ['schema.stream-chunk.matches-schema'],
  },
  { name: 'message null', object: 'chat_completion', rewrite: (b) => choices(b).map((c) => (c.message = null)).length > 0, check: 'schema.chat-completion.matches-schema', path: '/choices/0/message', message: /^\/choices\/0\/message: must be object$/ },
  { name: 'content absent without tool calls', object: 'chat_completion', rewrite: (b) => messages(b).filter((m) => m.tool_calls === undefined).map((m) => delete m.content).length > 0, check: 'schema.chat-completion.matches-schema', path: '/choices/0/message', message: /^\/choices\/0\/message: missing required field `content`$/ },
];

/** The first current model a check runs on. */
function modelOf(id: string): string {
  const check = registry.all().find((c) => c.id === id)!;
  return Object.keys(spec.models).find((m) => spec.models[m]!.kind === 'current' && check.appliesTo(spec.models[m]!, m))!;
}

let runs: MutatedRun[];
beforeAll(async () => {
  runs = await runMutated({ spec, now: NOW, cases: CASES.map((c) => ({ mutator: { object: c.object, rewrite: c.rewrite }, model: modelOf(c.check), checks: [c.check, ...(c.passes ?? [])] })) });
}, 60_000);

describe('an answer empty where the description needs something fails at must', () => {
  test.each(CASES.map((c, i) => [c.name, c, i] as const))('%s', (_name, c, i) => {
    const run = runs[i]!;
    expect(run.changed).toBeGreaterThan(0);
    const failed = mustFailures(run);
    expect(failed.map((r) => r.checkId)).toEqual([c.check]);
    const [failure] = failed[0]!.failures!;
    expect({ path: failure!.path, message: failure!.message }).toEqual({ path: c.path, message: expect.stringMatching(c.message) });
    for (const id of c.passes ?? []) expect(run.results.find((r) => r.checkId === id)?.verdict, id).toBe('pass');
  });
});
