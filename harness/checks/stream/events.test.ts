import { describe, expect, test } from 'vitest';
import { validatorFor } from '#harness/derive/validators/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { schemaChecks } from '../schema/responses.ts';
import { streamChecks } from './events.ts';
import { sseEventsOf } from '#harness/testing/sseEvents.ts';
import { buildRegistry } from '../index.ts';

/*
 * The stream checks on a stream that broke off: checks that need the whole stream (its end, its
 * sum) fail with the break alone; checks of a property of each event report what the events that
 * arrived break, beside the break. Never a verdict on a partial stream as if it were complete.
 */
const { spec } = loadSpec();
const model = Object.entries(spec.models).find(([, m]) => m.kind === 'current')![0];
const checks = new Map([...streamChecks(spec), ...schemaChecks(spec)].map((c) => [c.id, c]));
const RESET = 'HARNESS_RESET: the connection was reset mid-stream — POST http://x/chat/completions';

const chunk = (id: string, delta: object, finish: string | null = null) =>
  JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });

/** A stream of `events` then a reset, to every streamed request; each target has its own samples, as each run does. */
function brokenTarget(targetModel: string, events: string[]): CheckContext {
  const res: CheckResponse = {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    exchange: { request: { method: 'POST', url: 'http://x/chat/completions', headers: {} }, attempts: 1, error: { code: 'HARNESS_RESET', message: RESET } },
    text: () => Promise.reject(new Error('a stream')),
    json: () => Promise.reject(new Error('a stream')),
    async *events() {
      yield* sseEventsOf(events);
      throw new Error(RESET);
    },
  };
  return {
    spec,
    model,
    targetModel,
    mapModel: (id) => id,
    send: () => Promise.resolve(res),
    served: () => Promise.resolve({ served: true, evidence: [] }),
    judge: (name, body, profile = 'default') => validatorFor(spec, name, { profile })(body),
    referenceTime: () => Promise.resolve({ value: new Date(0), source: 'fixture' }),
    samples: new Map(),
    options: { strict: false, runs: 1, seed: 1, lifecycleToleranceSeconds: 0, hasEmptyBalanceKey: false, keyVariable: 'SVC_API_KEY' },
  };
}

const messages = (o: CheckOutcome) => (o.verdict === 'fail' ? o.failures.map((f) => f.message) : [`${o.verdict}`]);
const run = (id: string, ctx: CheckContext) => checks.get(id)!.run(ctx);

describe('a stream that broke off', () => {
  test('whole-stream checks fail with the break alone, not with what the partial stream lacks', async () => {
    // An endless tool call cut at the size cap: the name repeats, no finish_reason ever came.
    const endless = [chunk('c1', { role: 'assistant', content: '' }), ...Array.from({ length: 50 }, () => chunk('c1', { tool_calls: [{ index: 0, function: { name: 'get_weather', arguments: '{' } }] }))];
    const ctx = brokenTarget('broken-whole', endless);
    for (const id of ['stream.events.done-last', 'stream.events.final-chunk-has-finish-reason', 'stream.assembled.tool-calls-add-up', 'stream.assembled.honours-max-tokens']) {
      const got = messages(await run(id, ctx));
      expect(got, id).toEqual([`the stream broke off after 51 chunk(s): ${RESET}`]);
    }
    // The stop check first needs a readable control answer without `stop`; none came, so nothing was judged.
    const stop = await run('stream.assembled.honours-stop', ctx);
    expect(stop).toMatchObject({ verdict: 'skip', reason: expect.stringMatching(/^inconclusive: the control request/) });
  });

  test('per-event checks report the break, and what the events that arrived break', async () => {
    const ctx = brokenTarget('broken-per-event', [chunk('c1', { content: 'hi' }), chunk('c2', { content: 'there' }, 'stop'), '{not json', chunk('c3', { content: '!' })]);
    const byId = async (id: string) => messages(await run(id, ctx));
    const broke = `the stream broke off after 3 chunk(s): ${RESET}`;
    expect(await byId('stream.chunks.one-id')).toEqual([broke, '3 different ids in one stream ("c1", "c2", "c3")']);
    expect(await byId('stream.events.all-parse')).toEqual([broke, 'an event is not JSON: {not json']);
    expect(await byId('stream.events.first-chunk-has-role')).toEqual([broke, 'first chunk delta.role is absent', 'first chunk content is "hi", expected empty']);
    expect(await byId('stream.chunks.finish-reason-only-final')).toEqual([broke, '1 chunk(s) before the last carry finish_reason (chunk 1 of 3)']);
    // Chunks that match the schema: the break is the finding, never a pass.
    expect(await byId('schema.stream-chunk.matches-schema')).toEqual([broke]);
  });

  test('a break before any chunk: no "the stream has no chunk" beside it', async () => {
    const got = messages(await run('stream.events.first-chunk-has-role', brokenTarget('broken-empty', [])));
    expect(got).toEqual([`the stream broke off after 0 chunk(s): ${RESET}`]);
  });
});

describe('a check whose spec entry is missing is a load error, never a silent must', () => {
  test('the registry refuses to build, naming the check and the entry', () => {
    const { spec } = loadSpec();
    const without = { ...spec, rules: spec.rules.filter((r) => r.id !== 'chat.max-tokens.length') };
    expect(() => buildRegistry(without)).toThrow(/rules: chat\.max-tokens\.length: check stream\.assembled\.honours-max-tokens is built on this entry, which the spec lacks/);
  });
});
