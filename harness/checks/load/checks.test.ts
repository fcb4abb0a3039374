import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import type { Breach } from '../answer/breach.ts';
import { COUNT_NOISE_TOKENS, loadChecks } from './checks.ts';
import { LOAD_PROMPT_WORDS } from '#harness/load/drive.ts';
import type { DrivenExchange, DrivenLoad } from './run.ts';

/**
 * load.answers.not-crossed on hand-made phases: an answer is credited as its own request's only
 * where something tells it apart from every other prompt's (its count beyond noise, its text on an
 * endpoint shown to answer each prompt alike); the rest are counted as not judged, beside the pass.
 */
const { spec } = loadSpec();
const check = loadChecks(spec).find((c) => c.id === 'load.answers.not-crossed')!;
const conform = loadChecks(spec).find((c) => c.id === 'load.answers.conform')!;

const res = (): CheckResponse => ({ status: 200, headers: {}, exchange: { request: { method: 'POST', url: 'http://x/chat/completions', headers: {}, body: {} }, attempts: 1 }, text: async () => '', json: async () => ({}), events: async function* () {} });

type At = { prompt: number; stream?: boolean; tokens?: number; content?: string; problems?: Breach[] };
const answer = (step: number, a: At): DrivenExchange => {
  const r = res();
  return { step, inFlight: step === 0 ? 1 : 4, prompt: a.prompt, stream: a.stream ?? false, sentAt: 0, status: 200, res: r, exchange: r.exchange, problems: a.problems ?? [], ...(a.stream ? { finished: { finishReason: true, done: true } } : {}), ...(a.tokens === undefined ? {} : { promptTokens: a.tokens }), ...(a.content === undefined ? {} : { content: a.content }) };
};

function judge(rest: At[], loaded: At[], by = check): Promise<CheckOutcome> {
  const run: DrivenLoad = { model: 'svc-v4-flash', n: 4, steps: [1, 4], prompts: [...LOAD_PROMPT_WORDS], stepMs: [], exchanges: [...rest.map((a) => answer(0, a)), ...loaded.map((a) => answer(1, a))] };
  const ctx = { spec, load: { n: 4, run } } as unknown as CheckContext;
  return by.run(ctx);
}

const REST: At[] = [{ prompt: 0, tokens: 12 }, { prompt: 1, tokens: 40 }, { prompt: 2, tokens: 130 }, { prompt: 3, tokens: 330 }];

describe('load.answers.not-crossed', () => {
  test('each answer counting its own prompt passes, every one judged', async () => {
    const got = await judge(REST, REST.map((a) => ({ ...a, stream: true })));
    expect(got).toMatchObject({ verdict: 'pass', cases: 4 });
    expect(got).not.toHaveProperty('notJudged');
  });

  test('a stream counting another prompt\'s tokens crossed', async () => {
    const got = await judge(REST, [{ prompt: 0, stream: true, tokens: 130 }, { prompt: 2, stream: true, tokens: 12 }]);
    expect(got.verdict).toBe('fail');
    expect(got.verdict === 'fail' && got.failures[0]!.message).toMatch(/^a streamed request with 4 in flight for prompt [02] .*that is what prompt [02]/);
  });

  test('prompts whose counts at rest are within noise tell nothing apart: their answers are not judged, and the pass says so', async () => {
    // A server whose template outweighs the prompt: prompts 0 and 1 count 300 and 305.
    const rest: At[] = [{ prompt: 0, tokens: 300 }, { prompt: 1, tokens: 305 }, { prompt: 2, tokens: 420 }, { prompt: 3, tokens: 620 }];
    const got = await judge(rest, [{ prompt: 0, tokens: 305 }, { prompt: 1, tokens: 300 }, { prompt: 2, tokens: 420 }, { prompt: 3, tokens: 620 }]);
    expect(got).toMatchObject({ verdict: 'pass', cases: 2, notJudged: 2 });
    expect(got.verdict === 'pass' && got.note).toMatch(/; not judged: 2 answer\(s\) under load that could not be told apart \(prompts 0 and 1 count within 8 tokens of each other\)$/);
  });

  test('streams without usage, on an endpoint whose text varies, are not judged; those with a count are', async () => {
    const got = await judge(REST.map((a) => ({ ...a, content: `at rest ${a.prompt}` })), [{ prompt: 0, tokens: 12, content: 'another text' }, { prompt: 1, stream: true, content: 'at rest 2' }]);
    expect(got).toMatchObject({ verdict: 'pass', cases: 1, notJudged: 1 });
    expect(got.verdict === 'pass' && got.note).toMatch(/nothing else tells whose answer it is/);
  });

  test('where the endpoint answers each prompt with the same text, a stream without usage is told by its text', async () => {
    const rest = REST.map((a) => ({ ...a, content: `text ${a.prompt}` }));
    const crossed = await judge(rest, [{ prompt: 0, tokens: 12, content: 'text 0' }, { prompt: 1, stream: true, content: 'text 2' }]);
    expect(crossed.verdict === 'fail' && crossed.failures[0]!.message).toMatch(/for prompt 1 reported no usage and carried the text prompt 2 was answered with at rest/);
    const own = await judge(rest, [{ prompt: 0, tokens: 12, content: 'text 0' }, { prompt: 1, stream: true, content: 'text 1' }]);
    expect(own).toMatchObject({ verdict: 'pass', cases: 2 });
    expect(own.verdict === 'pass' && own.note).toMatch(/1 by its prompt count, 1 by its text/);
  });

  test('the phase\'s prompts count apart beyond noise in any tokenizer: they differ by more words than the noise has tokens', () => {
    // Each word (a space and a common English word) is at least one token in any tokenizer.
    const words = [...LOAD_PROMPT_WORDS];
    for (const [i, a] of words.entries()) for (const b of words.slice(i + 1)) expect(b - a, `${a} and ${b} words`).toBeGreaterThan(COUNT_NOISE_TOKENS);
  });
});

describe('load.answers.conform', () => {
  const role = (content: string): Breach => ({ rule: 'stream.events.first-chunk-has-role', kind: 'stream.events.first-chunk-has-role', message: `first chunk content is "${content}", expected empty` });
  const model: Breach = { rule: 'answer.stream-model.names-a-model-of-the-service', kind: 'answer.stream-model.names-a-model-of-the-service', message: 'the stream names model "gpt-4o-mini"' };

  test('a rule broken at rest too is the ordinary checks\' to report, whatever values its message quotes; one kept at rest fails', async () => {
    const rest = REST.map((a) => ({ ...a, stream: true, problems: [role('Step')] }));
    expect(await judge(rest, [{ prompt: 0, stream: true, tokens: 12, problems: [role('The')] }], conform)).toMatchObject({ verdict: 'pass', cases: 1 });
    const got = await judge(rest, [{ prompt: 0, stream: true, tokens: 12, problems: [role('The'), model] }], conform);
    expect(got.verdict === 'fail' && got.failures.map((f) => f.message)).toEqual(['a streamed request with 4 in flight: the stream names model "gpt-4o-mini" (answer.stream-model.names-a-model-of-the-service), a rule the same request meets at rest']);
  });

  test('an answer of a kind no request at rest was answered whole with has no twin: not judged, and counted', async () => {
    const got = await judge(REST, [{ prompt: 0, tokens: 12 }, { prompt: 1, stream: true, tokens: 40, problems: [model] }], conform);
    expect(got).toMatchObject({ verdict: 'pass', cases: 1, notJudged: 1 });
  });
});

describe('load.endpoint.recovers: within a window of its own, never waiting past the back-off cap', () => {
  const recovers = loadChecks(spec).find((c) => c.id === 'load.endpoint.recovers')!;
  const capMs = spec.errors.retry.max_delay_seconds * 1000;
  const refusedTry = (retryAfter: string): DrivenExchange => {
    const r = { ...res(), status: 429, headers: { 'retry-after': retryAfter } };
    return { step: 1, inFlight: 1, prompt: 0, stream: false, sentAt: 0, status: 429, res: r, exchange: r.exchange, problems: [] };
  };
  const withRecovery = (recovery: DrivenLoad['recovery']): Promise<CheckOutcome> => {
    const run: DrivenLoad = { model: 'svc-v4-flash', n: 4, steps: [1, 4], prompts: [...LOAD_PROMPT_WORDS], stepMs: [], exchanges: [...REST.map((a) => answer(0, a)), answer(1, { prompt: 0 })], ...(recovery ? { recovery } : {}) };
    return recovers.run({ spec, load: { n: 4, run } } as unknown as CheckContext);
  };

  test('a 200 within the window passes, saying the window and why it is that long', async () => {
    const got = await withRecovery({ windowMs: capMs, askedMs: 3_600_000, capMs, recoveredMs: 1200, tries: [answer(1, { prompt: 0 })] });
    expect(got.verdict).toBe('pass');
    expect(got.verdict === 'pass' && got.note).toBe(`answered 200 again 1200 ms after the peak (within ${capMs / 1000} s (the longest Retry-After at the peak, 3600 s, is beyond the description's back-off cap of ${capMs / 1000} s)), after 1 try(ies)`);
  });

  test('a try refused with a Retry-After beyond the cap ends the recovery: a failure with the typed wait', async () => {
    const x = refusedTry('3600');
    const got = await withRecovery({ windowMs: capMs, askedMs: 3_600_000, capMs, tries: [x], refused: { askedMs: 3_600_000, x } });
    expect(got.verdict).toBe('fail');
    const f = got.verdict === 'fail' ? got.failures[0]! : undefined;
    expect(f?.defect).toEqual({ kind: 'wait', status: 429, askedMs: 3_600_000, capMs, what: `HTTP 429 asked to wait 3600 s; the description caps back-off at ${capMs / 1000} s` });
    expect(f?.evidence).toBe(x.exchange);
  });

  test('no 200 within the window fails, saying it; a stop during the recovery judges nothing', async () => {
    const x = refusedTry('1');
    const late = await withRecovery({ windowMs: 1000, askedMs: 1000, capMs, tries: [x, x] });
    expect(late.verdict === 'fail' && late.failures[0]!.message).toBe('after the peak the endpoint did not answer 200 within 1 s (the longest Retry-After at the peak) (2 tries at rest; the last got HTTP 429)');
    const stopped = await withRecovery({ windowMs: 10_000, capMs, tries: [x], stopped: 'the run was stopped (SIGINT)' });
    expect(stopped).toMatchObject({ verdict: 'skip', kind: 'inconclusive', reason: 'inconclusive: the run stopped while waiting for the endpoint to recover: the run was stopped (SIGINT)' });
  });
});
