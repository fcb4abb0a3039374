import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { runMutated, type MutatedRun } from '#harness/testing/mutatedRuns.ts';
import type { Mutator } from '#harness/testing/mutatingProxy.ts';

/*
 * One premise for every tool check (issue 49, item 5): a model that writes text until max_tokens
 * where a tool call was due (llama-server with a model trained afresh, `transformers serve`) gives
 * answers cut off (finish_reason "length") with no call. Every tool check reads that the same way,
 * inconclusive on the cut, and none hands it to the check that forces the call (which is itself
 * inconclusive on it): before, rule.chat.tools.finish-reason-tool-calls failed at must on such an
 * answer while rule.chat.tool-choice.required-forces-call called it inconclusive. Where the call had
 * room (the emulator as it is), each stays a must verdict, and passes.
 */
const { spec } = loadSpec();
const NOW = '2026-06-01T00:00:00Z';
const TOOL_CHECKS = ['tool-choice', 'tools.', 'tool-call', 'tool-round-trip'];

type Json = Record<string, unknown>;
const firstChoice = (answer: unknown): Json | undefined => ((answer as { choices?: Json[] }).choices ?? [])[0];

/** A completion whose tool call is replaced by text running to max_tokens. */
const cutBody: Mutator = {
  object: 'chat_completion',
  rewrite(answer) {
    const choice = firstChoice(answer);
    const message = choice?.message as Json | undefined;
    if (!choice || !message?.tool_calls) return false;
    delete message.tool_calls;
    message.content = 'Let me look up the weather in';
    choice.finish_reason = 'length';
    return true;
  },
};

/** A stream whose tool-call deltas are replaced by text, ending at max_tokens. */
const cutStream: Mutator = {
  object: 'chat_completion_chunk',
  rewrite(chunk) {
    const choice = firstChoice(chunk);
    const delta = choice?.delta as Json | undefined;
    let changed = false;
    if (delta?.tool_calls) {
      delete delta.tool_calls;
      delta.content = 'Let me ';
      changed = true;
    }
    if (choice?.finish_reason === 'tool_calls') {
      choice.finish_reason = 'length';
      changed = true;
    }
    return changed;
  },
};

const asIs: Mutator = { object: 'chat_completion', rewrite: () => false };

const [body, stream, control] = await runMutated({
  spec,
  now: NOW,
  cases: [cutBody, cutStream, asIs].map((mutator) => ({ mutator, model: 'svc-v4-flash', checks: TOOL_CHECKS })),
});

const byId = (run: MutatedRun, id: string): CheckResult => {
  const r = run.results.find((x) => x.checkId === id);
  if (!r) throw new Error(`${id} did not run`);
  return r;
};
const CUT = /^inconclusive: .*cut off by max_tokens \(finish_reason "length"/;

describe('tool calls cut off by max_tokens', () => {
  test('the runs judged tool checks, and the proxy cut the answers they judged', () => {
    expect(control!.results.length).toBeGreaterThan(8);
    expect(body!.changed).toBeGreaterThan(0);
    expect(stream!.changed).toBeGreaterThan(0);
  });

  test('a completion cut where a call was due: every tool check inconclusive on the cut, none fails', () => {
    expect(body!.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => r.checkId)).toEqual([]);
    for (const id of ['rule.chat.tool-choice.required-forces-call', 'rule.chat.tools.finish-reason-tool-calls', 'answer.tool-call.names-an-offered-function', 'rule.chat.tool-choice.named-forces-function']) {
      expect(byId(body!, id).reason ?? byId(body!, id).verdict, id).toMatch(CUT);
    }
  });

  test('a stream cut where a call was due: the same premise, the same verdict', () => {
    expect(stream!.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => r.checkId)).toEqual([]);
    for (const id of ['rule.chat.tool-choice.required-forces-call.streamed', 'answer.stream-tool-call.names-an-offered-function', 'stream.assembled.tool-calls-add-up']) {
      expect(byId(stream!, id).reason ?? byId(stream!, id).verdict, id).toMatch(CUT);
    }
  });

  test('where the call had room, each is a must verdict, and passes', () => {
    for (const id of ['rule.chat.tool-choice.required-forces-call', 'rule.chat.tools.finish-reason-tool-calls', 'answer.tool-call.names-an-offered-function', 'rule.chat.tool-choice.required-forces-call.streamed', 'answer.stream-tool-call.names-an-offered-function', 'stream.assembled.tool-calls-add-up']) {
      expect([id, byId(control!, id).severity, byId(control!, id).verdict]).toEqual([id, 'must', 'pass']);
    }
  });
});
