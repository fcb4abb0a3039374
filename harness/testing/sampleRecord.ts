/**
 * Test helper (test code only): a realistic run record with every verdict and every severity, a
 * failure with full evidence and a reproducer, a streamed failure with its SSE events, and a
 * response body holding markup, a CDATA terminator, an ampersand and a control character, so
 * every renderer's escaping is exercised.
 */
import { curlOf } from '#harness/core/curl.ts';
import type { Exchange, RecordedRequest } from '#harness/core/exchange.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import type { RunRecord } from '#harness/results/runRecord.ts';
import { repeatStatsOf } from '#harness/results/passAtK.ts';
import { summarize } from '#harness/results/summarize.ts';
import { judgingOf } from '#harness/results/judging.ts';

/** What a hostile or broken endpoint might send back; it must come out inert in every report. */
export const HOSTILE_TEXT = 'Sure! <script>alert(1)</script> ]]> & "quoted" \'single\' \u0001bell\u0007 done';

export const SAMPLE_BASE_URL = 'http://127.0.0.1:43817';

function request(body: unknown, path = '/chat/completions'): RecordedRequest {
  return {
    method: 'POST',
    url: `${SAMPLE_BASE_URL}${path}`,
    headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
    body,
  };
}

const temperatureRequest = request({ model: 'svc-v4-flash', temperature: 2.5, messages: [{ role: 'user', content: 'Repeat: hi' }] });

const temperatureExchange: Exchange = {
  request: temperatureRequest,
  response: {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-7f3a' },
    body: {
      id: 'chatcmpl-1b2c',
      object: 'chat.completion',
      created: 1777800000,
      model: 'svc-v4-flash',
      choices: [{ index: 0, message: { role: 'assistant', content: HOSTILE_TEXT }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
    },
    durationMs: 41,
  },
  attempts: 1,
};

const streamRequest = request({ model: 'svc-v4-flash', stream: true, messages: [{ role: 'user', content: 'Repeat: ok' }] });

const streamExchange: Exchange = {
  request: streamRequest,
  response: {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    events: [
      { at: 3, data: ': keep-alive' },
      { at: 5, data: '{"id":"chatcmpl-9","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}' },
      { at: 9, data: '{"id":"chatcmpl-9","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"ok"}}]}' },
      { at: 12, data: '{"id":"chatcmpl-9","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}' },
    ],
    durationMs: 13,
  },
  attempts: 1,
};

const idRequest = request({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'Hello' }] });

/** A fresh deep copy each call, so a test may change it. */
export function sampleResults(): CheckResult[] {
  return structuredClone<CheckResult[]>([
    {
      checkId: 'response.body.matches-schema',
      title: 'A completion body matches the chat_completion schema',
      area: 'response',
      severity: 'must',
      specRefs: ['objects.chat_completion'],
      model: 'svc-v4-flash',
      verdict: 'pass',
      judged: { exchanges: 1 },
      durationMs: 38.2,
      tokens: { promptTokens: 12, completionTokens: 30, cacheHitTokens: 0 },
    },
    {
      checkId: 'request.temperature.rejects-out-of-range',
      title: 'A temperature above 2 is refused with 400 or 422',
      area: 'request',
      severity: 'must',
      basis: 'entailed from “Allowed values / bounds”',
      specRefs: ['objects.chat_request.fields.temperature', 'rules.out-of-range-status'],
      model: 'svc-v4-flash',
      verdict: 'fail',
      failures: [
        {
          message: 'expected status 400 or 422 for temperature 2.5, got 200 — POST http://127.0.0.1:43817/chat/completions (model svc-v4-flash)',
          path: '/temperature',
          specRef: 'rules.out-of-range-status',
          evidence: temperatureExchange,
          reproducer: { curl: curlOf(temperatureRequest), seed: 1337, path: '4:1:0' },
        },
      ],
      durationMs: 41.7,
      tokens: { promptTokens: 12, completionTokens: 9, cacheHitTokens: 0 },
    },
    {
      checkId: 'stream.framing.ends-with-done',
      title: 'A stream ends with data: [DONE]',
      area: 'stream',
      severity: 'must',
      specRefs: ['streaming.order.done'],
      model: 'svc-v4-flash',
      verdict: 'fail',
      failures: [
        {
          message: 'the stream closed after the final chunk without data: [DONE]',
          specRef: 'streaming.order.done',
          evidence: streamExchange,
          reproducer: { curl: curlOf(streamRequest), fixture: 'fixtures/127.0.0.1/svc-v4-flash/stream.framing.ends-with-done.json' },
        },
      ],
      durationMs: 15,
      tokens: { promptTokens: 10, completionTokens: 1, cacheHitTokens: 0 },
    },
    {
      checkId: 'response.id.has-chatcmpl-prefix',
      title: 'A completion id has the form chatcmpl-<uuid>',
      area: 'response',
      severity: 'should',
      specRefs: ['objects.chat_completion.fields.id'],
      model: 'svc-v4-flash',
      verdict: 'fail',
      failures: [
        {
          message: 'id "7d1f0c5e-90b1-4a57-8a8c-32c6f6c2c1aa" does not start with chatcmpl-',
          path: '/id',
          specRef: 'objects.chat_completion.fields.id',
          evidence: {
            request: idRequest,
            response: { status: 200, headers: { 'content-type': 'application/json' }, body: { id: '7d1f0c5e-90b1-4a57-8a8c-32c6f6c2c1aa', object: 'chat.completion' }, durationMs: 22 },
            attempts: 2,
          },
          reproducer: { curl: curlOf(idRequest) },
        },
      ],
      durationMs: 22.4,
      tokens: { promptTokens: 8, completionTokens: 12, cacheHitTokens: 0 },
    },
    {
      checkId: 'response.usage.reports-cache-hits',
      title: 'usage reports cache hit tokens',
      area: 'response',
      severity: 'advisory',
      specRefs: ['limits.context_caching.usage_fields'],
      model: 'svc-v4-flash',
      verdict: 'fail',
      failures: [
        {
          message: 'usage has no prompt_cache_hit_tokens field',
          path: '/usage',
          specRef: 'limits.context_caching.usage_fields',
          evidence: {
            request: idRequest,
            // a body that did not parse as JSON is kept as text: markup, a CDATA end and control characters included
            response: { status: 200, headers: { 'content-type': 'text/html' }, text: HOSTILE_TEXT, durationMs: 18 },
            attempts: 1,
          },
          reproducer: { curl: curlOf(idRequest) },
        },
      ],
      durationMs: 19,
    },
    {
      checkId: 'error.envelope.matches-schema',
      title: 'An error body matches the error envelope',
      area: 'error',
      severity: 'should',
      specRefs: ['errors.envelope'],
      model: 'svc-v4-flash',
      verdict: 'pass',
      judged: { exchanges: 1 },
      durationMs: 9.5,
    },
    {
      checkId: 'tools.tool-choice.required-forces-call',
      title: 'tool_choice required forces a tool call',
      area: 'tools',
      severity: 'must',
      specRefs: ['rules.tool-choice-required'],
      model: 'svc-v4-flash',
      verdict: 'skip',
      skipKind: 'not-applicable',
      reason: 'excluded by --only response.*',
      durationMs: 0,
    },
    {
      checkId: 'fim.completion.returns-text',
      title: 'Fill-in-the-middle returns text',
      area: 'fim',
      severity: 'must',
      specRefs: ['endpoints.fim_completion'],
      model: 'svc-v4-flash',
      verdict: 'unsupported',
      reason: `the target answered 404 with a well-formed error for POST /beta/completions: ${HOSTILE_TEXT}`,
      durationMs: 6,
    },
    {
      checkId: 'lifecycle.alias.retires-on-time',
      title: 'A legacy alias is refused after its retirement instant',
      area: 'lifecycle',
      severity: 'must',
      specRefs: ['lifecycle.aliases.svc-chat'],
      model: 'svc-v4-flash',
      verdict: 'error',
      reason: 'HARNESS_TIMEOUT: no response within 30000 ms — POST http://127.0.0.1:43817/chat/completions (model svc-chat)',
      cause: { code: 'HARNESS_TIMEOUT', what: 'no response within 30000 ms — POST http://127.0.0.1:43817/chat/completions (model svc-chat)' },
      durationMs: 30001,
    },
  ]);
}

/**
 * A check that passed in two of three runs of `run --repeat 3` and failed in one: verdict flaky,
 * the failing run's failure with its evidence, and the repeat figures. Kept out of sampleResults,
 * whose counts many tests pin; add it where a test is about flaky checks.
 */
export function sampleFlakyResult(): CheckResult {
  return structuredClone<CheckResult>({
    checkId: 'usage.total.equals-prompt-plus-completion',
    title: 'prompt_tokens + completion_tokens = total_tokens',
    area: 'usage',
    severity: 'must',
    basis: 'entailed from “total_tokens”',
    specRefs: ['meanings.usage-total-is-sum', 'objects.usage'],
    model: 'svc-v4-flash',
    verdict: 'flaky',
    reason: 'flaky: 2 of 3 runs passed',
    failures: [
      {
        message: 'the completion: prompt_tokens 12 + completion_tokens 9 = 21, but total_tokens is 22',
        path: '/usage',
        evidence: { ...temperatureExchange, request: idRequest },
        reproducer: { curl: curlOf(idRequest) },
      },
    ],
    durationMs: 31.5,
    tokens: { promptTokens: 36, completionTokens: 27, cacheHitTokens: 0 },
    repeat: { runs: 3, passes: 2, fails: 1, passAtK: { '1': 0.6667, '2': 1, '3': 1 }, passHatK: { '1': 0.6667, '2': 0.3333, '3': 0 } },
  });
}

/** The sample record with the flaky result added, as `run --repeat 3` (and `allowFlaky`, when asked) would write it. */
export function sampleRepeatedRecord(allowFlaky = false): RunRecord {
  const r = sampleRecord();
  // Every other check agreed with itself three times.
  const agreed = r.results.map((x) => ({ ...x, repeat: repeatStatsOf(3, x.verdict === 'pass' ? 3 : 0, x.verdict === 'fail' ? 3 : 0) }));
  const results = [...agreed, sampleFlakyResult()];
  return { ...r, options: { ...r.options, repeat: 3, ...(allowFlaky ? { allowFlaky: true } : {}) }, results, summary: summarize(results) };
}

/** A fresh copy each call, so a test may change it. */
export function sampleRecord(): RunRecord {
  const results = sampleResults();
  return {
    schemaVersion: 1,
    harness: { name: 'svc-conformance', version: '0.1.0' },
    spec: { revision: 'v2026-05', updated: '2026-05-03' },
    target: { kind: 'emulator', baseUrl: SAMPLE_BASE_URL, messagesBaseUrl: `${SAMPLE_BASE_URL}/anthropic` },
    model: 'svc-v4-flash',
    targetModel: 'svc-v4-flash',
    startedAt: '2026-05-10T09:00:00.000Z',
    finishedAt: '2026-05-10T09:00:31.250Z',
    referenceTime: { value: '2026-05-10T09:00:00.000Z', source: 'server-date' },
    options: { strict: false, runs: 25, seed: 1337 },
    results,
    summary: summarize(results),
    usage: { promptTokens: 42, completionTokens: 52, cacheHitTokens: 0, costUsd: '0.0000209' },
    interrupted: false,
  };
}

/** The sample record with two must-checks skipped inconclusive, handed to the schema check (`judging` as a run writes it, unless `old`). */
export function withHandedSkips(old = false): RunRecord {
  const r = sampleRecord();
  const handed = (checkId: string): CheckResult => ({ checkId, title: checkId, area: 'rule', severity: 'must', specRefs: [], model: r.model, verdict: 'skip', skipKind: 'inconclusive', reason: 'inconclusive: the completion carries no message; schema.chat-completion.matches-schema fails on it', handedTo: [{ check: 'schema.chat-completion.matches-schema', defect: 'the answers carried <no> message' }], durationMs: 1 });
  const results = [...r.results, handed('rule.a.judges'), handed('rule.b.judges')];
  const record = { ...r, results, summary: summarize(results) };
  return old ? record : { ...record, judging: judgingOf(results) };
}
