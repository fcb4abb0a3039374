/**
 * Every fault in the catalogue changes observable behaviour, one test per fault.
 *
 * Each entry of PROBES is a small probe (one or two HTTP requests, sent to the emulator as a
 * function of a Request: no sockets) and an observation that turns the replies into a plain value.
 * A test sends the probe to a clean emulator and to one started with only that fault, and states
 * both sides explicitly: the clean observation keeps the rule (`clean`), the faulty one breaks it
 * (`faulty`). The expectations are values compared with `toEqual`, asymmetric matchers allowed
 * (`expect.toBeOneOf` where the spec leaves the status open). A premise fault (`premise: true` in the
 * catalogue) breaks no rule but a premise of the checks of its `breaks`: its clean side keeps the
 * premise, its faulty side breaks it.
 *
 * `PROBES satisfies Record<FaultId, Probe>` keeps the table and the catalogue in step at compile
 * time; the guard test does the same at run time, so a fault added without a probe fails CI.
 */
import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { createApp, createContext, CROSSED_IN_FLIGHT, FAULTS, UNDER_LOAD_IN_FLIGHT, type EmulatorOptions, type FaultId } from '#harness/emulator/index.ts';

const { spec } = loadSpec();

const KEY = 'sk-a';
const POOR_KEY = 'sk-poor';
/** Before the legacy aliases retire (models.yaml: 2026-07-24T15:59:00Z). */
const BEFORE_RETIREMENT = '2026-06-01T00:00:00Z';
/** The retirement instant itself: "reaches 2026-07-24 15:59 UTC" means retired from then on. */
const AT_RETIREMENT = '2026-07-24T15:59:00Z';
/** The last millisecond before it. */
const JUST_BEFORE_RETIREMENT = '2026-07-24T15:58:59.999Z';

// ---------------------------------------------------------------------------------------------
// Sending requests and reading replies
// ---------------------------------------------------------------------------------------------

interface Call {
  method?: 'GET' | 'POST';
  /** A JSON body (serialised), or `raw` text sent as it is. */
  body?: unknown;
  raw?: string;
  /** The Authorization header: a key sent as `Bearer <key>` (default KEY), or null for no header. */
  key?: string | null;
  /** The client going away: the emulator sees the request's signal abort. */
  signal?: AbortSignal;
}

/** A reply read once, whole: status (0: no answer, the request ended as a network error), content type, body text (a stream is read to its end). */
interface Reply {
  status: number;
  contentType: string;
  text: string;
}

type Send = (path: string, call?: Call) => Promise<Reply>;

interface Probe<T> {
  /** The rule the clean emulator keeps, in words (the test's name). */
  rule: string;
  /** Start options shared by the clean and the faulty emulator (clock, balances...). */
  options?: Partial<EmulatorOptions>;
  /** The requests, in order. */
  probe(send: Send): Promise<Reply[]>;
  /** The replies as a comparable value. */
  observe(replies: Reply[]): T;
  /** Expected observation of the clean emulator (keeps the rule). */
  clean: unknown;
  /** Expected observation of the emulator with only this fault (breaks the rule). */
  faulty: unknown;
  /**
   * An emulator bug: the fault does not break its rule. The faulty side then runs as `test.fails`
   * (it passes while the bug is there, and fails, asking to drop this field, once it is fixed).
   */
  knownBug?: string;
}

function sender(faults: readonly FaultId[], options: Partial<EmulatorOptions>): Send {
  const app = createApp(
    createContext({
      spec,
      apiKeys: [KEY, POOR_KEY],
      now: () => new Date(BEFORE_RETIREMENT),
      balances: { [POOR_KEY]: { currency: 'USD', granted: '0', toppedUp: '0' } },
      ...options,
      faults,
    }),
  );
  return async (path, call = {}) => {
    const method = call.method ?? (call.body === undefined && call.raw === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = {};
    const key = call.key === undefined ? KEY : call.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (method === 'POST') headers['content-type'] = 'application/json';
    const body = call.raw ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
    const res = await app(new Request(`http://emulator.test${path}`, { method, headers, ...(body === undefined ? {} : { body }), ...(call.signal ? { signal: call.signal } : {}) }));
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
  };
}

type Json = Record<string, unknown>;

/** The reply body as a JSON object ({} when it is not one: the observation then reads undefined). */
function json(reply: Reply | undefined): Json {
  try {
    const v: unknown = JSON.parse(reply?.text ?? '');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
  } catch {
    return {};
  }
}

function rec(v: unknown): Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** choices[0] of a completion body. */
function choice(reply: Reply | undefined): Json {
  return rec(arr(json(reply).choices)[0]);
}

function message(reply: Reply | undefined): Json {
  return rec(choice(reply).message);
}

function usage(reply: Reply | undefined): Json {
  return rec(json(reply).usage);
}

/** The first balance entry's three amounts, as the balance probes compare them. */
function balanceAmounts(reply: Reply | undefined): Json {
  const info = rec(arr(json(reply).balance_infos)[0]);
  return { total: info.total_balance, granted: info.granted_balance, toppedUp: info.topped_up_balance };
}

function num(v: unknown): number {
  if (typeof v !== 'number') throw new Error(`expected a number, got ${JSON.stringify(v)}`);
  return v;
}

function parses(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The `data:` payloads of an SSE body, in order (one per event; multi-line data joined by \n). */
function dataLines(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '');
}

/** The chunks of an SSE body before `[DONE]` that parse as JSON. */
function chunks(reply: Reply | undefined): Json[] {
  const out: Json[] = [];
  for (const data of dataLines(reply?.text ?? '')) {
    if (data === '[DONE]') break;
    try {
      out.push(rec(JSON.parse(data)));
    } catch {
      // A data line that is not JSON: stream-malformed-event observes those on its own.
    }
  }
  return out;
}

/** The event names of an SSE body, in order, consecutive repeats (deltas) shown once. */
function eventNames(reply: Reply | undefined): string[] {
  const names = (reply?.text ?? '').split(/\r?\n\r?\n/).flatMap((event) => event.split(/\r?\n/).filter((l) => l.startsWith('event:')).map((l) => l.slice(6).trim()));
  return names.filter((n, i) => n !== names[i - 1]);
}

/** The data of the first event of a messages-format stream named `name`. */
function namedEvent(reply: Reply | undefined, name: string): Json {
  for (const event of (reply?.text ?? '').split(/\r?\n\r?\n/)) {
    const lines = event.split(/\r?\n/);
    if (lines.some((l) => l.trim() === `event: ${name}`)) return json({ status: 200, contentType: '', text: lines.find((l) => l.startsWith('data:'))?.slice(5) ?? '' });
  }
  return {};
}

function chunkChoice(c: Json): Json {
  return rec(arr(c.choices)[0]);
}

function isUsage(v: unknown): boolean {
  return typeof rec(v).prompt_tokens === 'number';
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

function chat(extra: Json = {}, text = 'Repeat: hello there'): Json {
  return { model: 'svc-v4-flash', messages: [{ role: 'user', content: text }], ...extra };
}

const WEATHER = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const CLOCK = {
  type: 'function',
  function: {
    name: 'get_time',
    description: 'Time in a zone',
    parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
  },
};

/** The messages format's shape of WEATHER. */
const WEATHER_TOOL = { name: 'get_weather', description: 'Weather of a city', input_schema: WEATHER.function.parameters };

function msgs(extra: Json = {}, text = 'Repeat: hi there'): Json {
  return { model: 'svc-v4-flash', max_tokens: 64, messages: [{ role: 'user', content: text }], ...extra };
}

const MESSAGES = '/anthropic/v1/messages';
const postMessages = (send: Send, body: Json) => send(MESSAGES, { body });

/** A chat tool round trip: the question, the call sent back (as the official clients echo it), its result. */
const TOOL_RESULT = '{"city":"Paris","temperature_c":21}';
function toolRoundTrip(call: Json = { content: '' }): Json[] {
  return [
    { role: 'user', content: 'What is the weather in Paris?' },
    { role: 'assistant', ...call, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: TOOL_RESULT },
  ];
}

/** A messages-format tool round trip: the question, the tool_use turn sent back, a tool_result block. */
const MESSAGES_ROUND_TRIP = [
  { role: 'user', content: 'What is the weather in Paris?' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: TOOL_RESULT }] },
];

function fim(extra: Json = {}): Json {
  return { model: 'svc-v4-pro', prompt: 'def add(a, b):\n', suffix: '\n    return c\n', max_tokens: 16, ...extra };
}

/** A prompt well over the 64-token cache minimum (about 240 tokens in the emulator's tokenizer). */
const LONG_PROMPT = `Repeat: ok ${Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ')}`;
/** A prompt well under it. */
const SHORT_PROMPT = 'Repeat: ok';

const postChat = (send: Send, body: Json, path = '/chat/completions') => send(path, { body });
const twice = async (send: Send, body: Json) => [await postChat(send, body), await postChat(send, body)];

const status = (replies: Reply[]) => replies[0]?.status;
const anError = expect.toSatisfy((s: unknown) => typeof s === 'number' && s >= 400 && s < 500, 'a 4xx refusal');
const moreThanOne = expect.toSatisfy((n: unknown) => typeof n === 'number' && n > 1, 'more than one');
const positiveMultipleOf64 = expect.toSatisfy((n: unknown) => typeof n === 'number' && n > 0 && n % 64 === 0, 'a positive multiple of 64');

/**
 * `n` chat requests sent at once: each is counted in flight as it arrives, before any is answered,
 * so the i-th (from 1) arrives with i in flight. Requests still unanswered after `giveUpMs` are
 * abandoned (their signal aborts): the reply of one never answered has status 0.
 */
async function atOnce(send: Send, n: number, body: (i: number) => Json, giveUpMs = 300): Promise<Reply[]> {
  const client = new AbortController();
  const replies = Array.from({ length: n }, (_, i) => send('/chat/completions', { body: body(i), signal: client.signal }));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(replies), new Promise((resolve) => (timer = setTimeout(resolve, giveUpMs)))]);
  clearTimeout(timer);
  client.abort();
  return Promise.all(replies);
}

/** Requests at once at the load faults' threshold (UNDER_LOAD_IN_FLIGHT: untouched), and 4 over it. */
const AT_THRESHOLD = UNDER_LOAD_IN_FLIGHT;
const OVER_THRESHOLD = UNDER_LOAD_IN_FLIGHT + 4;
/** The load probes' per-key limit: far above them, so only the fault decides. */
const LOAD_OPTIONS: Partial<EmulatorOptions> = { concurrencyPerKey: 64 };

/** The load faults' probes: `at` requests at once, then `over` at once, each batch observed on its own. */
async function twoBatches(send: Send, at: number, over: number, body: (i: number) => Json): Promise<Reply[]> {
  return [...(await atOnce(send, at, body)), ...(await atOnce(send, over, body))];
}
const batches = <T>(replies: Reply[], at: number, see: (batch: Reply[]) => T) => ({ at: see(replies.slice(0, at)), over: see(replies.slice(at)) });

/** A reply's content is its own prompt's (`Repeat: answer <i>`): how many of a batch were answered with another's. */
const crossedIn = (batch: Reply[]) => batch.filter((r, i) => message(r).content !== `answer ${i}`).length;
const repeatAnswer = (i: number) => chat({}, `Repeat: answer ${i}`);
/** The text a stream adds up to: its chunks' content deltas joined. */
/** Whether a stream's final chunk (the first with a finish_reason) carries usage, and what follows it: the usage-carrier faults' one observation. */
function afterFinal([r]: (Reply | undefined)[]) {
  const all = chunks(r);
  const final = all.findIndex((c) => chunkChoice(c).finish_reason != null);
  return { finalHasUsage: 'usage' in (all[final] ?? {}), after: all.slice(final + 1).map((c) => ({ choices: c.choices, usage: typeof c.usage })) };
}
const streamedText = (r: Reply) => chunks(r).map((c) => rec(chunkChoice(c).delta).content).filter((t) => typeof t === 'string').join('');
/** A stream long enough to be cut before its end: 40 words. */
const longStream = () => chat({ stream: true }, `Repeat: ${Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')}`);
/** How a stream ended: `finished` (a finish_reason, then [DONE]), `cut` (neither), or `partial`. */
function streamEnd(reply: Reply): string {
  const finished = chunks(reply).some((c) => typeof chunkChoice(c).finish_reason === 'string');
  const done = dataLines(reply.text).includes('[DONE]');
  return finished && done ? 'finished' : !finished && !done ? 'cut' : 'partial';
}
const tally = (labels: readonly (string | number)[]) => Object.fromEntries(unique(labels).sort().map((l) => [l, labels.filter((x) => x === l).length]));

// ---------------------------------------------------------------------------------------------
// The table: one probe per fault
// ---------------------------------------------------------------------------------------------

function p<T>(probe: Probe<T>): Probe<T> {
  return probe;
}

const PROBES = {
  // schema -------------------------------------------------------------------------------------
  'completion-missing-usage': p({
    rule: 'a non-streamed completion carries `usage`',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => ({ status: r?.status, hasUsage: 'usage' in json(r) }),
    clean: { status: 200, hasUsage: true },
    faulty: { status: 200, hasUsage: false },
  }),
  'completion-wrong-object': p({
    rule: '`object` is "chat.completion"',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => json(r).object,
    clean: 'chat.completion',
    faulty: 'chat.completions',
  }),
  'completion-created-as-string': p({
    rule: '`created` is an integer of Unix seconds',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => json(r).created,
    clean: Date.parse(BEFORE_RETIREMENT) / 1000,
    faulty: new Date(BEFORE_RETIREMENT).toISOString(),
  }),
  'completion-bad-finish-reason': p({
    rule: '`finish_reason` is a listed value',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => choice(r).finish_reason,
    clean: 'stop',
    faulty: 'done',
  }),
  'message-wrong-role': p({
    rule: 'the reply message has role "assistant"',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => message(r).role,
    clean: 'assistant',
    faulty: 'bot',
  }),
  'chunk-wrong-object': p({
    rule: 'stream chunks have `object` "chat.completion.chunk"',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => unique(chunks(r).map((c) => c.object)),
    clean: ['chat.completion.chunk'],
    faulty: ['chat.completion'],
  }),
  'models-missing-id': p({
    rule: 'model-list entries carry a string `id`',
    probe: async (send) => [await send('/models')],
    observe: ([r]) => ({ idTypes: unique(arr(json(r).data).map((e) => typeof rec(e).id)), includesFlash: arr(json(r).data).some((e) => rec(e).id === 'svc-v4-flash') }),
    clean: { idTypes: ['string'], includesFlash: true },
    faulty: { idTypes: ['undefined'], includesFlash: false },
  }),
  'balance-amount-as-number': p({
    rule: 'balance amounts are decimal strings',
    options: { balance: { currency: 'USD', granted: '5', toppedUp: '2' } },
    probe: async (send) => [await send('/user/balance')],
    observe: ([r]) => balanceAmounts(r),
    clean: { total: '7.000000', granted: '5.000000', toppedUp: '2.000000' },
    faulty: { total: 7, granted: 5, toppedUp: 2 },
  }),
  'fim-missing-text': p({
    rule: 'a fill-in-the-middle choice carries `text`',
    probe: async (send) => [await send('/beta/completions', { body: fim() })],
    observe: ([r]) => ({ status: r?.status, text: typeof choice(r).text }),
    clean: { status: 200, text: 'string' },
    faulty: { status: 200, text: 'undefined' },
  }),
  'messages-missing-content': p({
    rule: 'a messages-format reply carries a `content` array whose first item has `text`',
    probe: async (send) => [await send('/anthropic/v1/messages', { body: { model: 'svc-v4-flash', max_tokens: 64, messages: [{ role: 'user', content: 'Repeat: hi there' }] } })],
    observe: ([r]) => ({ status: r?.status, firstText: rec(arr(json(r).content)[0]).text }),
    clean: { status: 200, firstText: 'hi there' },
    faulty: { status: 200, firstText: undefined },
  }),
  'error-code-number': p({
    rule: '`error.code` is a string, as in the sample',
    probe: async (send) => [await postChat(send, chat({ messages: [] }))],
    observe: ([r]) => ({ status: r?.status, code: typeof rec(json(r).error).code }),
    clean: { status: 400, code: 'string' },
    faulty: { status: 400, code: 'number' },
  }),
  'error-envelope-flat': p({
    rule: 'an error body is `{"error": {"message", "type", ...}}`',
    probe: async (send) => [await postChat(send, chat({ messages: [] }))],
    observe: ([r]) => ({ status: r?.status, message: typeof rec(json(r).error).message, type: typeof rec(json(r).error).type }),
    clean: { status: 400, message: 'string', type: 'string' },
    faulty: { status: 400, message: 'undefined', type: 'undefined' },
  }),

  // statuses -----------------------------------------------------------------------------------
  'empty-messages-accepted': p({
    rule: 'empty `messages` is refused with 400',
    probe: async (send) => [await postChat(send, chat({ messages: [] }))],
    observe: status,
    clean: 400,
    faulty: 200,
  }),
  'unknown-model-500': p({
    rule: 'an unknown model id is refused with 400 or 404',
    probe: async (send) => [await postChat(send, chat({ model: 'svc-no-such-model' }))],
    observe: status,
    clean: expect.toBeOneOf([400, 404]),
    faulty: 500,
  }),
  'bounds-not-enforced': p({
    rule: '`temperature` 2.5 (bounds 0 to 2) is refused',
    probe: async (send) => [await postChat(send, chat({ temperature: 2.5 }))],
    observe: status,
    clean: expect.toBeOneOf([400, 422]),
    faulty: 200,
  }),
  'max-tokens-not-capped': p({
    rule: '`max_tokens` 384001 on svc-v4-flash (maximum 384000) is refused',
    probe: async (send) => [await postChat(send, chat({ max_tokens: 384_001 }))],
    observe: status,
    clean: expect.toBeOneOf([400, 422]),
    faulty: 200,
  }),
  'top-logprobs-without-logprobs': p({
    rule: '`top_logprobs` without `logprobs` true is refused',
    probe: async (send) => [await postChat(send, chat({ top_logprobs: 5 }))],
    observe: status,
    clean: expect.toBeOneOf([400, 422]),
    faulty: 200,
  }),
  'invalid-json-500': p({
    rule: 'a body that is not JSON is refused with 400',
    probe: async (send) => [await send('/chat/completions', { raw: '{"model": "svc-v4-flash", "messages": [' })],
    observe: status,
    clean: 400,
    faulty: 500,
  }),
  'second-case-500': p({
    rule: 'both cases of a missing required field are refused with 400: no `model`, and `model` without `messages`',
    probe: async (send) => [await postChat(send, { messages: [{ role: 'user', content: 'Hello' }] }), await postChat(send, { model: 'svc-v4-flash' })],
    observe: (replies) => replies.map((r) => ({ status: r.status, type: rec(json(r).error).type })),
    clean: [{ status: 400, type: 'invalid_request_error' }, { status: 400, type: 'invalid_request_error' }],
    faulty: [{ status: 400, type: 'invalid_request_error' }, { status: 500, type: 'server_error' }],
  }),
  'streamed-refusal-as-sse-error': p({
    rule: 'empty `messages` sent with `stream: true` is refused with 400 and the envelope, as unstreamed',
    probe: async (send) => [await postChat(send, { model: 'svc-v4-flash', messages: [], stream: true }), await postChat(send, { model: 'svc-v4-flash', messages: [] })],
    observe: (replies) => replies.map((r) => ({ status: r.status, event: r.contentType.startsWith('text/event-stream'), type: rec(json(r).error).type })),
    clean: [{ status: 400, event: false, type: 'invalid_request_error' }, { status: 400, event: false, type: 'invalid_request_error' }],
    faulty: [{ status: 200, event: true, type: undefined }, { status: 400, event: false, type: 'invalid_request_error' }],
  }),
  'streamed-refusal-500': p({
    rule: 'empty `messages` sent with `stream: true` is refused with 400 and the envelope, as unstreamed',
    probe: async (send) => [await postChat(send, { model: 'svc-v4-flash', messages: [], stream: true }), await postChat(send, { model: 'svc-v4-flash', messages: [] })],
    observe: (replies) => replies.map((r) => ({ status: r.status, type: rec(json(r).error).type })),
    clean: [{ status: 400, type: 'invalid_request_error' }, { status: 400, type: 'invalid_request_error' }],
    faulty: [{ status: 500, type: 'server_error' }, { status: 400, type: 'invalid_request_error' }],
  }),
  'stop-always-refused': p({
    rule: '`stop` as a string or up to 4 strings is accepted',
    probe: async (send) => [await postChat(send, chat({ stop: 'END' })), await postChat(send, chat({ stop: ['A', 'B'] })), await postChat(send, chat({}))],
    observe: (replies) => replies.map((r) => r.status),
    clean: [200, 200, 200],
    faulty: [400, 400, 200],
  }),
  'reasoning-effort-always-refused': p({
    rule: '`reasoning_effort` "low", "high" and "none" are accepted (a value not listed is refused with 400)',
    probe: async (send) => {
      const replies: Reply[] = [];
      for (const effort of ['low', 'high', 'none', 'medium']) replies.push(await postChat(send, chat({ reasoning_effort: effort })));
      return replies;
    },
    observe: (replies) => replies.map((r) => ({ status: r.status, errorMessage: typeof rec(json(r).error).message })),
    clean: [{ status: 200, errorMessage: 'undefined' }, { status: 200, errorMessage: 'undefined' }, { status: 200, errorMessage: 'undefined' }, { status: 400, errorMessage: 'string' }],
    faulty: Array.from({ length: 4 }, () => ({ status: 400, errorMessage: 'string' })),
  }),
  'missing-field-422': p({
    rule: 'a missing required field (`model`) is refused with 400',
    probe: async (send) => [await postChat(send, { messages: [{ role: 'user', content: 'Hello' }] })],
    observe: status,
    clean: 400,
    faulty: 422,
  }),

  // stream order and framing -------------------------------------------------------------------
  'stream-no-done': p({
    rule: 'a stream ends with `data: [DONE]`',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => dataLines(r?.text ?? '').at(-1),
    clean: '[DONE]',
    faulty: expect.stringContaining('"finish_reason":"stop"'),
  }),
  'completion-text-content-type': p({
    rule: 'a completion is served with a JSON media type',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => r?.contentType.split(';')[0]?.trim(),
    clean: 'application/json',
    faulty: 'text/plain',
  }),
  'stream-no-choice-index': p({
    rule: 'every chunk choice carries its `index`',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => chunks(r).every((c) => 'index' in chunkChoice(c)),
    clean: true,
    faulty: false,
  }),
  'stream-no-role': p({
    rule: 'the first chunk carries `role` "assistant"',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => rec(chunkChoice(chunks(r)[0] ?? {}).delta),
    clean: { role: 'assistant', content: '' },
    faulty: { content: '' },
  }),
  'stream-finish-every-chunk': p({
    rule: '`finish_reason` is set only in the final chunk',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => {
      const reasons = chunks(r).map((c) => chunkChoice(c).finish_reason);
      return { beforeFinal: unique(reasons.slice(0, -1)), final: reasons.at(-1) };
    },
    clean: { beforeFinal: [null], final: 'stop' },
    faulty: { beforeFinal: ['stop'], final: 'stop' },
  }),
  'stream-id-changes': p({
    rule: 'every chunk of a stream has the same id',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => unique(chunks(r).map((c) => c.id)).length,
    clean: 1,
    faulty: moreThanOne,
  }),
  'stream-data-after-done': p({
    rule: 'nothing follows `data: [DONE]`',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => {
      const lines = dataLines(r?.text ?? '');
      const done = lines.indexOf('[DONE]');
      return { hasDone: done >= 0, eventsAfterDone: done < 0 ? 0 : lines.length - done - 1 };
    },
    clean: { hasDone: true, eventsAfterDone: 0 },
    faulty: { hasDone: true, eventsAfterDone: 1 },
  }),
  'stream-no-final-chunk': p({
    rule: 'a final chunk with an empty delta and `finish_reason` comes before `[DONE]`',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => {
      const last = chunkChoice(chunks(r).at(-1) ?? {});
      return { delta: last.delta, finishReason: last.finish_reason };
    },
    clean: { delta: {}, finishReason: 'stop' },
    faulty: { delta: { content: expect.any(String) }, finishReason: null },
  }),
  'stream-json-content-type': p({
    rule: 'a stream is served as text/event-stream',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => r?.contentType.split(';')[0]?.trim(),
    clean: 'text/event-stream',
    faulty: 'application/json',
  }),
  'stream-no-choices': p({
    rule: 'some chunk of a stream carries a choice',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => ({ chunks: chunks(r).length > 2, withChoices: chunks(r).filter((c) => Array.isArray(c.choices) && c.choices.length > 0).length > 0 }),
    clean: { chunks: true, withChoices: true },
    faulty: { chunks: true, withChoices: false },
  }),
  'stream-usage-separate-chunk': p({
    rule: 'a chat stream carries `usage` in its final chunk, the one with `finish_reason`',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: afterFinal,
    clean: { finalHasUsage: true, after: [] },
    faulty: { finalHasUsage: false, after: [{ choices: [], usage: 'object' }] },
  }),
  'stream-empty-chunk-after-final': p({
    rule: 'the final chunk, with `finish_reason`, is the last chunk (a usage carrier after it has `usage`)',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: afterFinal,
    clean: { finalHasUsage: true, after: [] },
    faulty: { finalHasUsage: true, after: [{ choices: [], usage: 'undefined' }] },
  }),
  'stream-usage-chunk-no-final': p({
    rule: 'a final chunk with `finish_reason` comes before `[DONE]`, whatever chunk carries usage',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => {
      const all = chunks(r);
      return { finished: all.some((c) => chunkChoice(c).finish_reason != null), last: { choices: all.at(-1)?.choices, usage: typeof all.at(-1)?.usage } };
    },
    clean: { finished: true, last: { choices: [expect.objectContaining({ finish_reason: 'stop' })], usage: 'object' } },
    faulty: { finished: false, last: { choices: [], usage: 'object' } },
  }),
  'stream-malformed-event': p({
    rule: 'every data line but `[DONE]` holds JSON',
    probe: async (send) => [await postChat(send, chat({ stream: true }))],
    observe: ([r]) => {
      const lines = dataLines(r?.text ?? '').filter((d) => d !== '[DONE]');
      return { events: lines.length > 2, notJson: lines.filter((d) => !parses(d)).length };
    },
    clean: { events: true, notJson: 0 },
    faulty: { events: true, notJson: 1 },
  }),

  // usage arithmetic ---------------------------------------------------------------------------
  'usage-total-wrong': p({
    rule: '`total_tokens` = `prompt_tokens` + `completion_tokens`',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => {
      const u = usage(r);
      return num(u.total_tokens) - num(u.prompt_tokens) - num(u.completion_tokens);
    },
    clean: 0,
    faulty: 1,
  }),
  'usage-cache-sum-wrong': p({
    rule: '`prompt_cache_hit_tokens` + `prompt_cache_miss_tokens` = `prompt_tokens`',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => {
      const u = usage(r);
      return num(u.prompt_cache_hit_tokens) + num(u.prompt_cache_miss_tokens) - num(u.prompt_tokens);
    },
    clean: 0,
    faulty: 1,
  }),
  'usage-no-cache-fields': p({
    rule: '`usage` carries `prompt_cache_hit_tokens` and `prompt_cache_miss_tokens`, in a body and in a stream\'s usage',
    probe: async (send) => [await postChat(send, chat()), await postChat(send, chat({ stream: true }))],
    observe: ([body, stream]) => {
      const split = (u: Json) => ({ hit: typeof u.prompt_cache_hit_tokens, miss: typeof u.prompt_cache_miss_tokens, prompt: typeof u.prompt_tokens });
      return { body: split(usage(body)), stream: split(rec(chunks(stream).find((c) => c.usage !== undefined && c.usage !== null)?.usage)) };
    },
    clean: { body: { hit: 'number', miss: 'number', prompt: 'number' }, stream: { hit: 'number', miss: 'number', prompt: 'number' } },
    faulty: { body: { hit: 'undefined', miss: 'undefined', prompt: 'number' }, stream: { hit: 'undefined', miss: 'undefined', prompt: 'number' } },
  }),
  'max-tokens-ignored': p({
    rule: '`completion_tokens` <= `max_tokens`, and a cut answer says "length"',
    probe: async (send) => [await postChat(send, chat({ max_tokens: 3 }, 'Repeat: one two three four five six seven eight'))],
    observe: ([r]) => ({ withinMaxTokens: num(usage(r).completion_tokens) <= 3, finishReason: choice(r).finish_reason }),
    clean: { withinMaxTokens: true, finishReason: 'length' },
    faulty: { withinMaxTokens: false, finishReason: 'stop' },
  }),

  // output -------------------------------------------------------------------------------------
  'stop-sequence-ignored': p({
    rule: 'the output ends before a stop sequence',
    probe: async (send) => [await postChat(send, chat({ stop: ['STOP'], max_tokens: 50 }, 'Repeat: a b STOP c'))],
    observe: ([r]) => ({ content: message(r).content, finishReason: choice(r).finish_reason }),
    clean: { content: 'a b ', finishReason: 'stop' },
    faulty: { content: 'a b STOP c', finishReason: 'stop' },
  }),
  'length-says-stop': p({
    rule: 'output cut by `max_tokens` says `finish_reason` "length"',
    probe: async (send) => [await postChat(send, chat({ max_tokens: 2 }, 'Repeat: one two three four'))],
    observe: ([r]) => ({ content: message(r).content, finishReason: choice(r).finish_reason }),
    clean: { content: 'one two', finishReason: 'length' },
    faulty: { content: 'one two', finishReason: 'stop' },
  }),

  // text as users write it ------------------------------------------------------------------------
  'non-ascii-500': p({
    rule: 'a request in other scripts is answered as an ASCII one is',
    probe: async (send) => [await postChat(send, chat({}, 'Repeat: café 東京 👋🏽')), await postChat(send, chat({}, 'Repeat: cafe'))],
    observe: (replies) => replies.map((r) => r.status),
    clean: [200, 200],
    faulty: [500, 200],
  }),
  'non-ascii-mangled': p({
    rule: 'answer text outside ASCII is sent as the characters it is',
    probe: async (send) => [await postChat(send, chat({}, 'Repeat: café 東京'))],
    observe: ([r]) => message(r).content,
    clean: 'café 東京',
    faulty: 'cafÃ© æ\x9D±äº¬',
  }),
  'non-ascii-split-surrogates': p({
    rule: 'each `content` delta of a stream is whole characters',
    probe: async (send) => [await postChat(send, chat({ stream: true }, 'Repeat: hi 👋 there'))],
    observe: ([r]) => chunks(r).map((c) => (rec((c.choices as Json[] | undefined)?.[0]).delta as Json | undefined)?.content).filter((t) => typeof t === 'string' && t !== ''),
    clean: ['hi', ' 👋', ' there'],
    faulty: ['hi', ' \uD83D', '\uDC4B', ' there'],
  }),
  'non-ascii-stop-ignored': p({
    rule: 'a stop sequence outside ASCII ends the output, as an ASCII one does',
    probe: async (send) => [await postChat(send, chat({ stop: ['停止'] }, 'Repeat: a 停止 b')), await postChat(send, chat({ stop: ['STOP'] }, 'Repeat: a STOP b'))],
    observe: (replies) => replies.map((r) => message(r).content),
    clean: ['a ', 'a '],
    faulty: ['a 停止 b', 'a '],
  }),

  // lifecycle ----------------------------------------------------------------------------------
  'alias-never-retires': p({
    rule: 'svc-chat is refused from its retirement instant on',
    options: { now: () => new Date(AT_RETIREMENT) },
    probe: async (send) => [await postChat(send, chat({ model: 'svc-chat' }))],
    observe: status,
    clean: anError,
    faulty: 200,
  }),
  'alias-retired-early': p({
    rule: 'svc-chat is served until its retirement instant',
    options: { now: () => new Date(JUST_BEFORE_RETIREMENT) },
    probe: async (send) => [await postChat(send, chat({ model: 'svc-chat' }))],
    observe: ([r]) => ({ status: r?.status, model: json(r).model }),
    clean: { status: 200, model: 'svc-v4-flash' },
    faulty: { status: anError, model: undefined },
  }),
  'retired-alias-falls-back': p({
    rule: 'a retired alias gets an error, with no fallback to its replacement',
    options: { now: () => new Date('2026-07-25T00:00:00Z') },
    probe: async (send) => [await postChat(send, chat({ model: 'svc-chat' }))],
    observe: ([r]) => ({ status: r?.status, model: json(r).model, error: typeof rec(json(r).error).message }),
    clean: { status: anError, model: undefined, error: 'string' },
    faulty: { status: 200, model: 'svc-v4-flash', error: 'undefined' },
  }),
  'reasoner-routes-non-thinking': p({
    rule: 'svc-reasoner (before retirement) answers in thinking mode, with `reasoning_content`',
    probe: async (send) => [await postChat(send, chat({ model: 'svc-reasoner' }))],
    observe: ([r]) => ({ status: r?.status, model: json(r).model, reasoning: message(r).reasoning_content ?? null }),
    clean: { status: 200, model: 'svc-v4-flash', reasoning: expect.stringMatching(/\S/) },
    faulty: { status: 200, model: 'svc-v4-flash', reasoning: null },
  }),

  // authentication -----------------------------------------------------------------------------
  'auth-missing-key-accepted': p({
    rule: 'a request without a key gets 401',
    probe: async (send) => [await send('/chat/completions', { body: chat(), key: null })],
    observe: status,
    clean: 401,
    faulty: 200,
  }),
  'auth-wrong-key-403': p({
    rule: 'an unknown key gets 401',
    probe: async (send) => [await send('/chat/completions', { body: chat(), key: 'sk-not-a-key-of-this-service' })],
    observe: status,
    clean: 401,
    faulty: 403,
  }),

  // tools --------------------------------------------------------------------------------------
  'tool-arguments-not-json': p({
    rule: 'tool call arguments hold JSON',
    probe: async (send) => [await postChat(send, chat({ tools: [WEATHER], tool_choice: 'required' }, 'What is the weather in Paris?'))],
    observe: ([r]) => {
      const call = rec(arr(message(r).tool_calls)[0]);
      return { name: rec(call.function).name, argumentsParse: parses(rec(call.function).arguments) };
    },
    clean: { name: 'get_weather', argumentsParse: true },
    faulty: { name: 'get_weather', argumentsParse: false },
  }),
  'tool-arguments-off-schema': p({
    rule: 'tool call arguments hold the required properties of the tool schema',
    probe: async (send) => [await postChat(send, chat({ tools: [WEATHER], tool_choice: 'required' }, 'What is the weather in Paris?'))],
    observe: ([r]) => {
      const args = rec(rec(arr(message(r).tool_calls)[0]).function).arguments;
      return { argumentKeys: parses(args) ? Object.keys(rec(JSON.parse(args as string))).sort() : 'not JSON' };
    },
    clean: { argumentKeys: ['city'] },
    faulty: { argumentKeys: [] },
  }),
  'tool-finish-reason-stop': p({
    rule: 'a reply with tool calls says `finish_reason` "tool_calls"',
    probe: async (send) => [await postChat(send, chat({ tools: [WEATHER], tool_choice: 'required' }, 'What is the weather in Paris?'))],
    observe: ([r]) => ({ calls: arr(message(r).tool_calls).length, finishReason: choice(r).finish_reason }),
    clean: { calls: 1, finishReason: 'tool_calls' },
    faulty: { calls: 1, finishReason: 'stop' },
  }),
  'tool-call-cut-off': p({
    rule: 'a tool call within `max_tokens` (256) ends with `finish_reason` "tool_calls" and JSON arguments, in a body and in a stream (premise: the fault cuts the call off, which breaks no rule)',
    probe: async (send) => {
      const ask = chat({ tools: [WEATHER], tool_choice: 'required', max_tokens: 256 }, 'What is the weather in Paris?');
      return [await postChat(send, ask), await postChat(send, { ...ask, stream: true })];
    },
    observe: ([body, stream]) => {
      const call = rec(rec(arr(message(body).tool_calls)[0]).function);
      const all = chunks(stream);
      const streamed = all.flatMap((c) => arr(rec(chunkChoice(c).delta).tool_calls).map((t) => rec(rec(t).function).arguments)).join('');
      const streamUsage = rec(all.find((c) => c.usage !== undefined && c.usage !== null)?.usage);
      return {
        body: { name: call.name, finishReason: choice(body).finish_reason, argumentsParse: parses(call.arguments), completionTokens: usage(body).completion_tokens },
        stream: { finishReason: chunkChoice(all.at(-1) ?? {}).finish_reason, argumentsParse: parses(streamed), sameArguments: streamed === call.arguments, completionTokens: streamUsage.completion_tokens },
      };
    },
    clean: {
      body: { name: 'get_weather', finishReason: 'tool_calls', argumentsParse: true, completionTokens: expect.toSatisfy((n: unknown) => typeof n === 'number' && n < 256, 'under max_tokens') },
      stream: { finishReason: 'tool_calls', argumentsParse: true, sameArguments: true, completionTokens: expect.toSatisfy((n: unknown) => typeof n === 'number' && n < 256, 'under max_tokens') },
    },
    faulty: {
      body: { name: 'get_weather', finishReason: 'length', argumentsParse: false, completionTokens: 256 },
      stream: { finishReason: 'length', argumentsParse: false, sameArguments: true, completionTokens: 256 },
    },
  }),
  'tool-choice-none-ignored': p({
    rule: '`tool_choice` "none" calls no tool (even when the message names one)',
    probe: async (send) => [await postChat(send, chat({ tools: [WEATHER], tool_choice: 'none' }, 'Call get_weather for Paris'))],
    observe: ([r]) => ({ calls: arr(message(r).tool_calls).length, finishReason: choice(r).finish_reason }),
    clean: { calls: 0, finishReason: 'stop' },
    faulty: { calls: 1, finishReason: 'tool_calls' },
  }),
  'tool-choice-required-ignored': p({
    rule: '`tool_choice` "required" calls a tool',
    probe: async (send) => [await postChat(send, chat({ tools: [WEATHER], tool_choice: 'required' }, 'Repeat: no tool needed'))],
    observe: ([r]) => ({ calls: arr(message(r).tool_calls).length, finishReason: choice(r).finish_reason }),
    clean: { calls: 1, finishReason: 'tool_calls' },
    faulty: { calls: 0, finishReason: 'stop' },
  }),
  'stream-tool-call-no-index': p({
    rule: 'every streamed tool-call delta carries the `index` of its call',
    probe: async (send) => [await postChat(send, chat({ tools: [WEATHER], tool_choice: 'required', stream: true }, 'What is the weather in Paris?'))],
    observe: ([r]) => {
      const deltas = chunks(r).flatMap((c) => arr(rec(chunkChoice(c).delta).tool_calls));
      return deltas.length > 0 && deltas.every((t) => 'index' in rec(t));
    },
    clean: true,
    faulty: false,
  }),
  'tool-call-unoffered-function': p({
    rule: 'a tool call names a function the request offered, in bodies and streams',
    probe: async (send) => [
      await postChat(send, chat({ tools: [WEATHER], tool_choice: 'required' }, 'What is the weather in Paris?')),
      await postChat(send, chat({ tools: [WEATHER], tool_choice: 'required', stream: true }, 'What is the weather in Paris?')),
    ],
    observe: ([body, stream]) => [
      arr(message(body).tool_calls).map((c) => rec(rec(c).function).name),
      chunks(stream).flatMap((c) => arr(rec(chunkChoice(c).delta).tool_calls).map((t) => rec(rec(t).function).name)).filter((n) => n !== undefined),
    ],
    clean: [['get_weather'], ['get_weather']],
    faulty: [[expect.not.stringMatching(/^get_weather$/)], [expect.not.stringMatching(/^get_weather$/)]],
  }),
  'tool-choice-named-ignored': p({
    rule: 'the object form of `tool_choice` calls the named function',
    probe: async (send) =>
      [await postChat(send, chat({ tools: [WEATHER, CLOCK], tool_choice: { type: 'function', function: { name: 'get_time' } } }, 'What time is it in Tokyo?'))],
    observe: ([r]) => arr(message(r).tool_calls).map((c) => rec(rec(c).function).name),
    clean: ['get_time'],
    faulty: ['get_weather'],
  }),

  // JSON mode ----------------------------------------------------------------------------------
  'json-mode-not-json': p({
    rule: 'JSON mode answers with content that parses as JSON',
    probe: async (send) => [await postChat(send, chat({ response_format: { type: 'json_object' } }, 'Answer in JSON with a field "answer". Repeat: hello'))],
    observe: ([r]) => ({ status: r?.status, contentParses: parses(message(r).content) }),
    clean: { status: 200, contentParses: true },
    faulty: { status: 200, contentParses: false },
  }),

  // thinking -----------------------------------------------------------------------------------
  'thinking-no-reasoning': p({
    rule: 'thinking enabled makes the reply carry `reasoning_content`',
    probe: async (send) => [await postChat(send, chat({ thinking: { type: 'enabled' } }))],
    observe: ([r]) => ({ status: r?.status, reasoning: message(r).reasoning_content ?? null }),
    clean: { status: 200, reasoning: expect.stringMatching(/\S/) },
    faulty: { status: 200, reasoning: null },
  }),
  'reasoning-when-disabled': p({
    rule: 'thinking disabled leaves `reasoning_content` null',
    probe: async (send) => [await postChat(send, chat({ thinking: { type: 'disabled' } }))],
    observe: ([r]) => message(r).reasoning_content ?? null,
    clean: null,
    faulty: expect.any(String),
  }),
  'reasoning-effort-none-thinks': p({
    rule: '`reasoning_effort` "none" equals thinking disabled: no `reasoning_content`',
    probe: async (send) => [await postChat(send, chat({ reasoning_effort: 'none' }))],
    observe: ([r]) => ({ status: r?.status, reasoning: message(r).reasoning_content ?? null }),
    clean: { status: 200, reasoning: null },
    faulty: { status: 200, reasoning: expect.any(String) },
  }),

  // fill-in-the-middle -------------------------------------------------------------------------
  'fim-thinking-accepted': p({
    rule: 'fill-in-the-middle with thinking enabled is refused with 422',
    probe: async (send) => [await send('/beta/completions', { body: fim({ thinking: { type: 'enabled' } }) })],
    observe: status,
    clean: 422,
    faulty: 200,
  }),
  'fim-json-mode-accepted': p({
    rule: 'fill-in-the-middle with JSON mode is refused with 400',
    probe: async (send) => [await send('/beta/completions', { body: fim({ response_format: { type: 'json_object' } }) })],
    observe: status,
    clean: 400,
    faulty: 200,
  }),
  'fim-stream-ignored': p({
    rule: 'fill-in-the-middle with `stream: true` is streamed: text pieces, a final chunk, `[DONE]`',
    probe: async (send) => [await send('/beta/completions', { body: fim({ stream: true }) }), await send('/beta/completions', { body: fim() })],
    observe: ([stream, body]) => ({
      contentType: stream?.contentType.split(';')[0]?.trim(),
      pieces: chunks(stream).length > 1,
      joined: chunks(stream).map((c) => chunkChoice(c).text).join('') === choice(body).text,
      last: dataLines(stream?.text ?? '').at(-1),
    }),
    clean: { contentType: 'text/event-stream', pieces: true, joined: true, last: '[DONE]' },
    faulty: { contentType: 'application/json', pieces: false, joined: false, last: undefined },
  }),
  'fim-outside-beta': p({
    rule: 'fill-in-the-middle is served on the beta base only (/completions on the root base is refused)',
    probe: async (send) => [await send('/completions', { body: fim() }), await send('/beta/completions', { body: fim() })],
    observe: ([root, beta]) => ({ root: root?.status, beta: beta?.status }),
    clean: { root: anError, beta: 200 },
    faulty: { root: 200, beta: 200 },
  }),

  // prefix completion --------------------------------------------------------------------------
  'prefix-without-flag-accepted': p({
    rule: 'on the beta base, a last assistant message without `prefix: true` is refused with 422',
    probe: async (send) => [await postChat(send, chat({ messages: [{ role: 'user', content: 'Write a poem' }, { role: 'assistant', content: 'Roses are' }] }), '/beta/chat/completions')],
    observe: status,
    clean: 422,
    faulty: 200,
  }),
  'prefix-outside-beta': p({
    rule: 'prefix completion (`prefix: true`) outside the beta base is refused',
    probe: async (send) => [await postChat(send, chat({ messages: [{ role: 'user', content: 'Write a poem' }, { role: 'assistant', content: 'Roses are', prefix: true }] }))],
    observe: status,
    clean: anError,
    faulty: 200,
  }),

  // balance ------------------------------------------------------------------------------------
  'balance-topped-up-first': p({
    rule: 'granted balance is spent before topped-up balance',
    options: { balance: { currency: 'USD', granted: '5', toppedUp: '2' } },
    probe: async (send) => [await postChat(send, chat()), await send('/user/balance')],
    observe: ([, r]) => {
      const info = rec(arr(json(r).balance_infos)[0]);
      // Which bucket one request was charged to (amounts carry six decimals, so any spend shows).
      return { grantedSpent: Number(info.granted_balance) < 5, toppedUpSpent: Number(info.topped_up_balance) < 2 };
    },
    clean: { grantedSpent: true, toppedUpSpent: false },
    faulty: { grantedSpent: false, toppedUpSpent: true },
  }),
  'balance-402-not-enforced': p({
    rule: 'a key with a zero balance gets 402',
    probe: async (send) => [await send('/chat/completions', { body: chat(), key: POOR_KEY })],
    observe: status,
    clean: 402,
    faulty: 200,
  }),
  'balance-total-not-sum': p({
    rule: 'each total_balance is granted_balance + topped_up_balance',
    options: { balance: { currency: 'USD', granted: '5', toppedUp: '2' } },
    probe: async (send) => [await send('/user/balance')],
    observe: ([r]) => balanceAmounts(r),
    clean: { total: '7.000000', granted: '5.000000', toppedUp: '2.000000' },
    faulty: { total: '8.000000', granted: '5.000000', toppedUp: '2.000000' },
  }),

  // caching ------------------------------------------------------------------------------------
  'cache-never-hits': p({
    rule: 'a repeated prompt over 64 tokens hits the cache the second time, in multiples of 64',
    probe: (send) => twice(send, chat({}, LONG_PROMPT)),
    observe: ([a, b]) => ({ promptOver64: num(usage(a).prompt_tokens) > 64, first: usage(a).prompt_cache_hit_tokens, second: usage(b).prompt_cache_hit_tokens }),
    clean: { promptOver64: true, first: 0, second: positiveMultipleOf64 },
    faulty: { promptOver64: true, first: 0, second: 0 },
  }),
  'cache-hits-under-minimum': p({
    rule: 'a prompt under 64 tokens is never cached',
    probe: (send) => twice(send, chat({}, SHORT_PROMPT)),
    observe: ([a, b]) => ({ promptUnder64: num(usage(a).prompt_tokens) < 64, second: num(usage(b).prompt_cache_hit_tokens) }),
    clean: { promptUnder64: true, second: 0 },
    faulty: { promptUnder64: true, second: expect.toSatisfy((n: number) => n > 0, 'some hits') },
  }),

  // bases --------------------------------------------------------------------------------------
  'extra-fields': p({
    rule: 'bodies carry only fields the description lists (the strict profile reports others)',
    probe: async (send) => [await send('/user/balance'), await postChat(send, chat({ stream: true }))],
    observe: ([balance, stream]) => ({ balanceExtra: 'x_vendor_trace' in json(balance), chunkExtra: chunks(stream).some((c) => 'x_vendor_trace' in c) }),
    clean: { balanceExtra: false, chunkExtra: false },
    faulty: { balanceExtra: true, chunkExtra: true },
  }),
  'created-in-milliseconds': p({
    rule: '`created` is Unix time in seconds, in bodies and chunks',
    probe: async (send) => [await postChat(send, chat()), await postChat(send, chat({ stream: true }))],
    observe: ([body, stream]) => [json(body).created, chunks(stream)[0]?.created],
    clean: [Date.parse(BEFORE_RETIREMENT) / 1000, Date.parse(BEFORE_RETIREMENT) / 1000],
    faulty: [Date.parse(BEFORE_RETIREMENT), Date.parse(BEFORE_RETIREMENT)],
  }),
  'model-unknown-in-answer': p({
    rule: 'answers name the model that answered, in bodies and chunks',
    probe: async (send) => [await postChat(send, chat()), await postChat(send, chat({ stream: true }))],
    observe: ([body, stream]) => [json(body).model, chunks(stream)[0]?.model],
    clean: ['svc-v4-flash', 'svc-v4-flash'],
    faulty: [expect.not.stringMatching(/^svc-v4-flash$/), expect.not.stringMatching(/^svc-v4-flash$/)],
  }),
  'models-list-missing-current': p({
    rule: 'the model list names every current model',
    probe: async (send) => [await send('/models')],
    observe: ([r]) => arr(json(r).data).map((m) => rec(m).id).filter((id) => id === 'svc-v4-flash' || id === 'svc-v4-pro'),
    clean: ['svc-v4-flash', 'svc-v4-pro'],
    faulty: ['svc-v4-flash'],
  }),
  'models-bare-array': p({
    rule: 'the model list is an object holding the entries',
    probe: async (send) => [await send('/models')],
    observe: ([r]) => ({ isArray: Array.isArray(JSON.parse(r?.text ?? 'null')) }),
    clean: { isArray: false },
    faulty: { isArray: true },
  }),
  'completion-bare-uuid-id': p({
    rule: 'completion ids have the `chatcmpl-<uuid>` shape',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => ({ chatcmplShape: /^chatcmpl-/.test(String(json(r).id)) }),
    clean: { chatcmplShape: true },
    faulty: { chatcmplShape: false },
  }),
  'content-null': p({
    rule: 'a text reply carries `content` as a string',
    probe: async (send) => [await postChat(send, chat())],
    observe: ([r]) => ({ content: message(r).content }),
    clean: { content: 'hello there' },
    faulty: { content: null },
  }),
  'bounds-too-tight': p({
    rule: 'values at the stated bounds are accepted (temperature 2)',
    probe: async (send) => [await postChat(send, chat({ temperature: 2 }))],
    observe: status,
    clean: 200,
    faulty: anError,
  }),
  'tool-choice-auto-refused': p({
    rule: '`tool_choice` "auto" is accepted',
    probe: async (send) => [await postChat(send, chat({ tools: [WEATHER], tool_choice: 'auto' }))],
    observe: status,
    clean: 200,
    faulty: anError,
  }),
  'stream-reasoning-when-disabled': p({
    rule: 'with thinking disabled, no chunk carries reasoning text',
    probe: async (send) => [await postChat(send, chat({ thinking: { type: 'disabled' }, stream: true })), await postChat(send, chat({ thinking: { type: 'disabled' } }))],
    observe: ([stream, body]) => ({ streamed: chunks(stream).some((c) => typeof rec(chunkChoice(c).delta).reasoning_content === 'string'), body: message(body).reasoning_content ?? null }),
    clean: { streamed: false, body: null },
    faulty: { streamed: true, body: null },
  }),
  'thinking-with-tools-refused': p({
    rule: 'thinking may be enabled together with tools',
    probe: async (send) => [await postChat(send, chat({ tools: [WEATHER], thinking: { type: 'enabled' } }))],
    observe: status,
    clean: 200,
    faulty: anError,
  }),
  'fim-needs-max-tokens': p({
    rule: 'fill-in-the-middle without `max_tokens` is served with the default',
    probe: async (send) => [await send('/beta/completions', { body: { model: 'svc-v4-pro', prompt: 'def add(a, b):\n', suffix: '\n    return c\n' } })],
    observe: status,
    clean: 200,
    faulty: anError,
  }),
  'prefix-ignored': p({
    rule: 'a prefix completion continues its prefix',
    probe: async (send) => [await postChat(send, chat({ messages: [{ role: 'user', content: 'Repeat: alpha beta gamma delta epsilon' }, { role: 'assistant', content: 'gamma delta', prefix: true }] }), '/beta/chat/completions')],
    observe: ([r]) => message(r).content,
    clean: ' epsilon',
    faulty: 'alpha beta gamma delta epsilon',
  }),
  'prefix-refused': p({
    rule: 'prefix completion on the beta base is served',
    probe: async (send) => [await postChat(send, chat({ messages: [{ role: 'user', content: 'Write a poem' }, { role: 'assistant', content: 'Roses are', prefix: true }] }), '/beta/chat/completions')],
    observe: status,
    clean: 200,
    faulty: anError,
  }),
  'replacement-withdrawn': p({
    rule: 'svc-v4-flash, the replacement of the legacy aliases, is served',
    probe: async (send) => [await postChat(send, chat())],
    observe: status,
    clean: 200,
    faulty: anError,
  }),
  'v1-missing': p({
    rule: '{base_url}/v1 serves chat completions',
    probe: async (send) => [await postChat(send, chat(), '/v1/chat/completions')],
    observe: ([r]) => ({ status: r?.status, object: json(r).object }),
    clean: { status: 200, object: 'chat.completion' },
    faulty: { status: 404, object: undefined },
  }),

  'v1-strips-fields': p({
    rule: '{base_url}/v1 answers with the fields {base_url} answers with',
    probe: async (send) => {
      const ask = chat({ thinking: { type: 'enabled' } });
      return [await postChat(send, ask), await postChat(send, ask, '/v1/chat/completions')];
    },
    observe: (replies) => replies.map((r) => ({ reasoning: typeof message(r).reasoning_content, hit: typeof usage(r).prompt_cache_hit_tokens })),
    clean: [{ reasoning: 'string', hit: 'number' }, { reasoning: 'string', hit: 'number' }],
    faulty: [{ reasoning: 'string', hit: 'number' }, { reasoning: 'undefined', hit: 'undefined' }],
  }),

  'v1-models-differ': p({
    rule: '{base_url}/v1/models lists the same models as {base_url}/models',
    probe: async (send) => [await send('/models'), await send('/v1/models')],
    observe: ([root, v1]) => arr(json(root).data).length - arr(json(v1).data).length,
    clean: 0,
    faulty: 1,
  }),

  // endpoints not served ------------------------------------------------------------------------
  'chat-not-served': p({
    rule: 'POST {base_url}/chat/completions is served',
    probe: async (send) => [await postChat(send, chat())],
    observe: status,
    clean: 200,
    faulty: 404,
  }),
  'beta-not-served': p({
    rule: 'chat and fill-in-the-middle are served on {beta_base_url}',
    probe: async (send) => [await postChat(send, chat(), '/beta/chat/completions'), await send('/beta/completions', { body: fim() })],
    observe: (replies) => replies.map((r) => r.status),
    clean: [200, 200],
    faulty: [404, 404],
  }),
  'models-not-served': p({
    rule: 'GET /models is served on {base_url} and {base_url}/v1',
    probe: async (send) => [await send('/models'), await send('/v1/models')],
    observe: (replies) => replies.map((r) => r.status),
    clean: [200, 200],
    faulty: [404, 404],
  }),
  'balance-not-served': p({
    rule: 'GET /user/balance is served on {base_url} and {base_url}/v1',
    probe: async (send) => [await send('/user/balance'), await send('/v1/user/balance')],
    observe: (replies) => replies.map((r) => r.status),
    clean: [200, 200],
    faulty: [404, 404],
  }),
  'messages-not-served': p({
    rule: 'the messages format is served under {messages_base_url}',
    probe: async (send) => [await send('/anthropic/v1/messages', { body: { model: 'svc-v4-flash', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] } })],
    observe: status,
    clean: 200,
    faulty: 404,
  }),

  // statelessness ------------------------------------------------------------------------------
  'stateful-history': p({
    rule: 'the same request twice gets the same answer (no state between calls)',
    probe: (send) => twice(send, chat({}, 'Tell me something')),
    observe: ([a, b]) => message(a).content === message(b).content,
    clean: true,
    faulty: false,
  }),

  // under load (more requests in flight than a threshold) --------------------------------------
  'load-answers-crossed': p({
    rule: 'with many requests in flight, each non-streamed chat request is answered with its own completion',
    options: LOAD_OPTIONS,
    probe: (send) => twoBatches(send, AT_THRESHOLD, OVER_THRESHOLD, repeatAnswer),
    observe: (replies) => batches(replies, AT_THRESHOLD, (b) => ({ statuses: unique(b.map((r) => r.status)), crossed: crossedIn(b) })),
    clean: { at: { statuses: [200], crossed: 0 }, over: { statuses: [200], crossed: 0 } },
    // Answered while 12, 11, 10, 9 were in flight: the first its own, the next three the one before.
    faulty: { at: { statuses: [200], crossed: 0 }, over: { statuses: [200], crossed: 3 } },
  }),
  'load-excess-500': p({
    rule: 'with many requests in flight, each is served or refused with 429, never answered 500',
    options: LOAD_OPTIONS,
    probe: (send) => twoBatches(send, AT_THRESHOLD, OVER_THRESHOLD, repeatAnswer),
    observe: (replies) => batches(replies, AT_THRESHOLD, (b) => ({ statuses: tally(b.map((r) => r.status)), errorTypes: unique(b.filter((r) => r.status >= 400).map((r) => rec(json(r).error).type)) })),
    clean: { at: { statuses: { 200: AT_THRESHOLD }, errorTypes: [] }, over: { statuses: { 200: OVER_THRESHOLD }, errorTypes: [] } },
    // The 9th to 12th arrive with more than 8 in flight.
    faulty: { at: { statuses: { 200: AT_THRESHOLD }, errorTypes: [] }, over: { statuses: { 200: AT_THRESHOLD, 500: 4 }, errorTypes: ['server_error'] } },
  }),
  'load-no-recovery': p({
    rule: 'after a peak of many requests in flight, the service answers 200 again',
    options: LOAD_OPTIONS,
    // A batch over the threshold, then one request at rest.
    probe: async (send) => [...(await atOnce(send, OVER_THRESHOLD, repeatAnswer)), ...(await atOnce(send, 1, repeatAnswer))],
    observe: (replies) => ({ afterPeak: replies.at(-1)!.status }),
    clean: { afterPeak: 200 },
    faulty: { afterPeak: 429 },
  }),
  'load-streams-cut': p({
    rule: 'with many requests in flight, every stream that began ends with a finish_reason and `data: [DONE]`',
    options: LOAD_OPTIONS,
    probe: (send) => twoBatches(send, AT_THRESHOLD, OVER_THRESHOLD, longStream),
    observe: (replies) => batches(replies, AT_THRESHOLD, (b) => ({ statuses: unique(b.map((r) => r.status)), ends: tally(b.map(streamEnd)), cutAfter: unique(b.filter((r) => streamEnd(r) === 'cut').map((r) => dataLines(r.text).length)) })),
    clean: { at: { statuses: [200], ends: { finished: AT_THRESHOLD }, cutAfter: [] }, over: { statuses: [200], ends: { finished: OVER_THRESHOLD }, cutAfter: [] } },
    // The first four streams to reach their third event are cut there (12, 11, 10, 9 in flight).
    faulty: { at: { statuses: [200], ends: { finished: AT_THRESHOLD }, cutAfter: [] }, over: { statuses: [200], ends: { cut: 4, finished: AT_THRESHOLD }, cutAfter: [3] } },
  }),
  'load-requests-hung': p({
    rule: 'with many requests in flight, every request is answered',
    options: LOAD_OPTIONS,
    probe: (send) => twoBatches(send, AT_THRESHOLD, OVER_THRESHOLD, repeatAnswer),
    observe: (replies) => batches(replies, AT_THRESHOLD, (b) => tally(b.map((r) => r.status))),
    clean: { at: { 200: AT_THRESHOLD }, over: { 200: OVER_THRESHOLD } },
    // The 9th to 12th never answered: abandoned by the probe after 300 ms (status 0).
    faulty: { at: { 200: AT_THRESHOLD }, over: { 0: 4, 200: AT_THRESHOLD } },
  }),
  'load-usage-dropped': p({
    rule: 'with many requests in flight, every completion carries `usage`, in a body and in a stream\'s final chunk',
    options: LOAD_OPTIONS,
    probe: async (send) => [...(await twoBatches(send, AT_THRESHOLD, OVER_THRESHOLD, repeatAnswer)), ...(await twoBatches(send, AT_THRESHOLD, OVER_THRESHOLD, () => chat({ stream: true })))],
    observe: (replies) => {
      const bodies = replies.slice(0, AT_THRESHOLD + OVER_THRESHOLD);
      const streams = replies.slice(AT_THRESHOLD + OVER_THRESHOLD);
      const streamUsage = (r: Reply) => chunks(r).some((c) => typeof chunkChoice(c).finish_reason === 'string' && isUsage(c.usage));
      return {
        bodies: batches(bodies, AT_THRESHOLD, (b) => b.filter((r) => isUsage(json(r).usage)).length),
        streams: batches(streams, AT_THRESHOLD, (b) => b.every(streamUsage)),
      };
    },
    clean: { bodies: { at: AT_THRESHOLD, over: OVER_THRESHOLD }, streams: { at: true, over: true } },
    // Bodies: the four answered while 12 to 9 were in flight; streams: those whose final chunk came then.
    faulty: { bodies: { at: AT_THRESHOLD, over: AT_THRESHOLD }, streams: { at: true, over: false } },
  }),
  'answers-crossed': p({
    rule: 'with several requests in flight, each non-streamed chat request is answered with its own completion',
    probe: (send) => twoBatches(send, CROSSED_IN_FLIGHT, 8, repeatAnswer),
    observe: (replies) => batches(replies, CROSSED_IN_FLIGHT, (b) => ({ statuses: unique(b.map((r) => r.status)), crossed: crossedIn(b) })),
    clean: { at: { statuses: [200], crossed: 0 }, over: { statuses: [200], crossed: 0 } },
    // Answered while 8 to 4 were in flight: the first its own, the next four the one before.
    faulty: { at: { statuses: [200], crossed: 0 }, over: { statuses: [200], crossed: 4 } },
  }),
  // under load, issue 47
  'load-streams-crossed': p({
    rule: 'with many requests in flight, each chat stream is its own request\'s',
    options: LOAD_OPTIONS,
    probe: (send) => twoBatches(send, AT_THRESHOLD, OVER_THRESHOLD, (i) => chat({ stream: true }, `Repeat: answer ${i}`)),
    observe: (replies) => batches(replies, AT_THRESHOLD, (b) => ({ statuses: unique(b.map((r) => r.status)), crossed: b.filter((r, i) => streamedText(r) !== `answer ${i}`).length })),
    clean: { at: { statuses: [200], crossed: 0 }, over: { statuses: [200], crossed: 0 } },
    // Each of the 12 is planned once all 12 have arrived (a stream holds its slot): the first its own, the other eleven the one before.
    faulty: { at: { statuses: [200], crossed: 0 }, over: { statuses: [200], crossed: OVER_THRESHOLD - 1 } },
  }),
  'load-model-renamed': p({
    rule: 'with many requests in flight, answers name the model that answered, in bodies and chunks',
    options: LOAD_OPTIONS,
    probe: async (send) => [...(await twoBatches(send, AT_THRESHOLD, OVER_THRESHOLD, repeatAnswer)), ...(await twoBatches(send, AT_THRESHOLD, OVER_THRESHOLD, () => chat({ stream: true })))],
    observe: (replies) => {
      const bodies = replies.slice(0, AT_THRESHOLD + OVER_THRESHOLD);
      const streams = replies.slice(AT_THRESHOLD + OVER_THRESHOLD);
      return { bodies: batches(bodies, AT_THRESHOLD, (b) => unique(b.map((r) => json(r).model))), streams: batches(streams, AT_THRESHOLD, (b) => unique(b.flatMap((r) => chunks(r).map((c) => c.model)))) };
    },
    clean: { bodies: { at: ['svc-v4-flash'], over: ['svc-v4-flash'] }, streams: { at: ['svc-v4-flash'], over: ['svc-v4-flash'] } },
    // Those planned with more than 8 in flight name another service's model: some bodies (the first answered free their slots), every stream.
    faulty: { bodies: { at: ['svc-v4-flash'], over: ['gpt-4o-mini', 'svc-v4-flash'] }, streams: { at: ['svc-v4-flash'], over: ['gpt-4o-mini'] } },
  }),

  // conversations ------------------------------------------------------------------------------
  'tool-result-refused': p({
    rule: 'a tool round trip (assistant turn with `tool_calls`, then a `tool` message) is answered with text about the result',
    probe: async (send) => [await postChat(send, chat({ messages: toolRoundTrip(), tools: [WEATHER], tool_choice: 'none' }))],
    observe: ([r]) => ({ status: r?.status, finishReason: choice(r).finish_reason, mentionsResult: String(message(r).content).includes(TOOL_RESULT) }),
    clean: { status: 200, finishReason: 'stop', mentionsResult: true },
    faulty: { status: 400, finishReason: undefined, mentionsResult: false },
  }),
  'assistant-turn-refused': p({
    rule: 'a request holding an earlier assistant turn is answered',
    probe: async (send) => [await postChat(send, chat({ messages: [{ role: 'user', content: 'Say hello.' }, { role: 'assistant', content: 'Hello there!' }, { role: 'user', content: 'Repeat: second turn' }] }))],
    observe: ([r]) => ({ status: r?.status, content: message(r).content }),
    clean: { status: 200, content: 'second turn' },
    faulty: { status: 400, content: undefined },
  }),
  'history-dropped': p({
    rule: 'the answer reads the history sent: a code word told in an earlier turn (and in the system message) is known',
    probe: async (send) => [
      await postChat(send, chat({ messages: [{ role: 'user', content: 'Remember this: the code word is kiwi-7.' }, { role: 'assistant', content: 'I will remember it.' }, { role: 'user', content: 'What is the code word?' }] })),
      await postChat(send, chat({ messages: [{ role: 'system', content: 'The code word: plum-3' }, { role: 'user', content: 'What is the code word?' }] })),
    ],
    observe: (replies) => replies.map((r) => message(r).content),
    clean: ['The code word is kiwi-7.', 'The code word is plum-3.'],
    faulty: [expect.stringMatching(/^I do not know the code word/), expect.stringMatching(/^I do not know the code word/)],
  }),
  'reasoner-accepts-reasoning-content': p({
    rule: 'svc-reasoner refuses `reasoning_content` sent back inside messages with 400; without it, answers',
    probe: async (send) => {
      const turns = (reasoning: Json) => [{ role: 'user', content: 'Repeat: first turn' }, { role: 'assistant', content: 'first turn', ...reasoning }, { role: 'user', content: 'Repeat: second turn' }];
      return [await postChat(send, chat({ model: 'svc-reasoner', messages: turns({ reasoning_content: 'I thought.' }) })), await postChat(send, chat({ model: 'svc-reasoner', messages: turns({}) }))];
    },
    observe: (replies) => replies.map((r) => r.status),
    clean: [400, 200],
    faulty: [200, 200],
  }),
  'thinking-tool-turn-needs-reasoning': p({
    rule: 'in thinking mode, a tool-call turn sent back without `reasoning_content` (as the description asks) is answered',
    probe: async (send) => [await postChat(send, chat({ messages: toolRoundTrip(), tools: [WEATHER], tool_choice: 'none', thinking: { type: 'enabled' } }))],
    observe: ([r]) => ({ status: r?.status, message: rec(json(r).error).message, finishReason: choice(r).finish_reason }),
    clean: { status: 200, message: undefined, finishReason: 'stop' },
    faulty: { status: 400, message: expect.stringMatching(/^Missing `reasoning_content` field in the assistant message at message index 1\.$/), finishReason: undefined },
  }),

  'thinking-plain-turn-needs-reasoning': p({
    rule: 'in thinking mode, a conversation whose earlier plain assistant turn is sent back with `content` only (as the description asks) is answered',
    probe: async (send) => [
      await postChat(send, chat({ messages: [{ role: 'user', content: 'Say hello.' }, { role: 'assistant', content: 'Hello there!' }, { role: 'user', content: 'Again.' }], thinking: { type: 'enabled' } })),
      await postChat(send, chat({ messages: [{ role: 'user', content: 'Say hello.' }, { role: 'assistant', content: 'Hello there!' }, { role: 'user', content: 'Again.' }], thinking: { type: 'disabled' } })),
    ],
    observe: ([on, off]) => ({ on: on?.status, message: rec(json(on).error).message, off: off?.status }),
    clean: { on: 200, message: undefined, off: 200 },
    faulty: { on: 400, message: expect.stringMatching(/^reasoning_content missing in the assistant message at message index 1/), off: 200 },
  }),

  // the messages format ------------------------------------------------------------------------
  'messages-tools-ignored': p({
    rule: 'a messages-format `tool_choice` naming a tool is answered with a `tool_use` block and `stop_reason` "tool_use"',
    probe: async (send) => [await postMessages(send, msgs({ tools: [WEATHER_TOOL], tool_choice: { type: 'tool', name: 'get_weather' } }, 'What is the weather in Paris?'))],
    observe: ([r]) => ({ blocks: arr(json(r).content).map((b) => rec(b).type), stopReason: json(r).stop_reason, name: rec(arr(json(r).content)[1]).name }),
    clean: { blocks: ['text', 'tool_use'], stopReason: 'tool_use', name: 'get_weather' },
    faulty: { blocks: ['text'], stopReason: 'end_turn', name: undefined },
  }),
  'messages-tool-result-refused': p({
    rule: 'a messages-format `tool_result` block (after the `tool_use` turn) is answered with text about the result',
    probe: async (send) => [await postMessages(send, msgs({ messages: MESSAGES_ROUND_TRIP, tools: [WEATHER_TOOL] }))],
    observe: ([r]) => ({ status: r?.status, stopReason: json(r).stop_reason, mentionsResult: String(rec(arr(json(r).content)[0]).text).includes(TOOL_RESULT) }),
    clean: { status: 200, stopReason: 'end_turn', mentionsResult: true },
    faulty: { status: 400, stopReason: undefined, mentionsResult: false },
  }),
  'messages-stream-out-of-order': p({
    rule: 'a messages-format stream sends its events in the format order, `message_stop` last',
    probe: async (send) => [await postMessages(send, msgs({ stream: true }))],
    observe: ([r]) => eventNames(r),
    clean: ['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
    faulty: ['message_start', 'ping', 'content_block_start', 'content_block_delta', 'message_stop', 'content_block_stop', 'message_delta'],
  }),
  'messages-stop-reason-chat-style': p({
    rule: 'a messages-format reply that ends naturally says `stop_reason` "end_turn", in bodies and streams',
    probe: async (send) => [await postMessages(send, msgs()), await postMessages(send, msgs({ stream: true }))],
    observe: ([body, stream]) => [json(body).stop_reason, rec(namedEvent(stream, 'message_delta').delta).stop_reason],
    clean: ['end_turn', 'end_turn'],
    faulty: ['stop', 'stop'],
  }),
  'messages-error-chat-shape': p({
    rule: 'a messages-format error says `type` "error" at its top level, beside the `error` object',
    probe: async (send) => [await postMessages(send, msgs({ model: 'svc-no-such-model' }))],
    observe: ([r]) => ({ status: r?.status, type: json(r).type, errorMessage: typeof rec(json(r).error).message }),
    clean: { status: expect.toBeOneOf([400, 404]), type: 'error', errorMessage: 'string' },
    faulty: { status: expect.toBeOneOf([400, 404]), type: undefined, errorMessage: 'string' },
  }),
  'messages-error-flat': p({
    rule: 'a messages-format error carries an `error` object holding `message` and `type`',
    probe: async (send) => [await postMessages(send, msgs({ model: 'svc-no-such-model' }))],
    observe: ([r]) => ({ status: r?.status, message: typeof rec(json(r).error).message, type: typeof rec(json(r).error).type }),
    clean: { status: expect.toBeOneOf([400, 404]), message: 'string', type: 'string' },
    faulty: { status: expect.toBeOneOf([400, 404]), message: 'undefined', type: 'undefined' },
  }),
  'messages-error-no-body': p({
    rule: 'a messages-format error carries a body',
    probe: async (send) => [await postMessages(send, msgs({ model: 'svc-no-such-model' }))],
    observe: ([r]) => ({ status: r?.status, body: r?.text !== '' }),
    clean: { status: expect.toBeOneOf([400, 404]), body: true },
    faulty: { status: expect.toBeOneOf([400, 404]), body: false },
  }),
  'messages-text-content-type': p({
    rule: 'a messages-format reply is served with a JSON media type',
    probe: async (send) => [await postMessages(send, msgs())],
    observe: ([r]) => r?.contentType.split(';')[0]?.trim(),
    clean: 'application/json',
    faulty: 'text/plain',
  }),
} satisfies Record<FaultId, Probe<unknown>>;

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

const table: [FaultId, Probe<unknown>][] = Object.entries(PROBES) as [FaultId, Probe<unknown>][];

describe('every fault in the catalogue changes observable behaviour', () => {
  test('the table has one probe per fault of the catalogue, and no other', () => {
    expect(new Set(Object.keys(PROBES))).toEqual(new Set(FAULTS.map((f) => f.id)));
    expect(FAULTS.length).toBe(new Set(FAULTS.map((f) => f.id)).size);
  });

  for (const [id, probe] of table) {
    const observe = async (faults: readonly FaultId[]) => probe.observe(await probe.probe(sender(faults, probe.options ?? {})));
    const keeps = async () => {
      const clean = await observe([]);
      expect(clean, `clean emulator: ${probe.rule}`).toEqual(probe.clean);
      expect(clean, 'clean emulator: the observation must not match the faulty expectation').not.toEqual(probe.faulty);
    };
    const breaks = async () => {
      const faulty = await observe([id]);
      expect(faulty, `emulator with fault ${id}: breaks "${probe.rule}"`).toEqual(probe.faulty);
      // And the faulty observation is indeed outside what the clean side must show.
      expect(faulty, `emulator with fault ${id}: the observation must not keep the rule`).not.toEqual(probe.clean);
    };
    if (probe.knownBug === undefined) {
      test(`${id}: clean keeps "${probe.rule}", faulty breaks it`, async () => {
        await keeps();
        await breaks();
      });
    } else {
      // Split, so the clean side is still asserted while the faulty side is expected to fail.
      test(`${id}: clean keeps "${probe.rule}"`, keeps);
      test.fails(`${id}: faulty breaks it (KNOWN EMULATOR BUG: ${probe.knownBug})`, breaks);
    }
  }
});
