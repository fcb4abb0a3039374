import { validatorFor, type Level, type Violation } from '#harness/derive/validators/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { CheckOutcome, CheckResponse } from '../context.ts';
import { handOffOnModel } from './handoff.ts';
import { failure } from './outcome.ts';
import { isObject, type Json } from './body.ts';

/** At most this many of each kind of sample are kept: odd events, violations per level, chunk indices. */
export const MAX_SAMPLES = 20;
/** Characters of one odd event kept as its sample (messages quote less). */
const SAMPLE_CHARS = 1000;
/** Characters kept of the content, of the reasoning text, and of each tool call's name and arguments. */
export const MAX_TEXT_CHARS = 64 * 1024;
/** Tool calls (distinct indices) assembled; the rest are only counted. */
const MAX_TOOL_CALLS = 64;
/** No chunk's id: the first chunk's id, whatever it is (undefined too), is new. */
const NO_CHUNK = Symbol('no chunk');
/** Pieces of text gathered before they are joined into one string (many small strings cost more than one). */
const JOIN_EVERY = 512;

/** Events of one kind: the first MAX_SAMPLES of them, and how many there were. */
export interface Samples<T> {
  count: number;
  first: T[];
}

/** A schema violation of one chunk; `chunk` is its index in the stream. */
export type ChunkViolation = Violation & { chunk: number };

/** Text a stream adds up to: the first MAX_TEXT_CHARS characters, and its whole length. */
export interface StreamText {
  text: string;
  chars: number;
}

export interface AssembledToolCall {
  id?: string;
  name: StreamText;
  arguments: StreamText;
}

/** The message a stream adds up to: content, reasoning text, tool calls by index, finish reason, usage. */
export interface AssembledMessage {
  content: StreamText;
  reasoning: StreamText;
  /** In index order; at most MAX_TOOL_CALLS of them. */
  toolCalls: AssembledToolCall[];
  /** More tool calls (distinct indices) came than the MAX_TOOL_CALLS assembled. */
  moreToolCalls: boolean;
  /** The last finish_reason that was not null. */
  finishReason: unknown;
  /** The last `usage` that was not null. */
  usage: unknown;
}

/**
 * A stream as it arrived, judged event by event. What is kept does not grow with the stream's
 * length: counts, the first and last chunk, bounded samples, and the message assembled as the
 * chunks arrive (its text capped). Each chunk is dropped once it has been read.
 */
export interface ReadStream {
  /** Chunks of the message (JSON objects that are not error objects) received; the usage carrier is not one. */
  chunks: number;
  /** Of those, the chunks whose `choices` held at least one choice (a usage-only chunk holds none). */
  choiceChunks: number;
  first?: Json;
  /** The message's last chunk: the last to arrive, or the one before the usage carrier. */
  last?: Json;
  /**
   * The usage carrier (streaming.yaml `usage_carrier`): the last chunk to arrive, when it has
   * `choices: []` and a `usage` object and the chunk before it carries a finish_reason. It is not a
   * chunk of the message: its index is `chunks`, after the message's, and `last` is the one before.
   */
  usageCarrier?: { chunk: number; body: Json };
  /** Distinct `id` values of the chunks, the first MAX_SAMPLES of them; `more` when there were others. */
  ids: { first: unknown[]; more: boolean };
  /** Indices of the chunks that carry a finish_reason (not null). */
  finishes: Samples<number>;
  message: AssembledMessage;
  /** The last chunk carrying a `usage` that is not null: its index, and whether it had choices. */
  usageAt?: { chunk: number; withChoices: boolean };
  /**
   * The other usage objects the stream sent before that last one (usage on every chunk, or twice),
   * each differing from the one before it: where usage is sent its sums hold, so each is judged.
   */
  earlierUsage: Samples<{ chunk: number; usage: Json }>;
  /** `data:` payloads that were not a JSON object (and not [DONE]). */
  malformed: Samples<string>;
  done: boolean;
  /** Events that came after [DONE]. */
  afterDone: Samples<string>;
  comments: number;
  /** `data:` payloads that are an error object (`{"error": …}`) instead of a chunk. */
  errorEvents: Samples<string>;
  /** Each chunk's schema violations, by level, when readStream was given a judge. */
  violations?: Partial<Record<Level, Samples<ChunkViolation>>>;
  /**
   * Set when the stream broke off (reset, timeout, cut at the size limit, malformed framing), or
   * when the server sent an error event instead of the rest of the stream: the stream did not
   * arrive whole, so whatever depends on its end or its sum cannot be judged.
   */
  error?: string;
}

export interface ReadStreamOptions {
  /** Judges each chunk as it arrives (a chunk is not kept for later). */
  judge?: (chunk: Json) => Violation[];
}

/**
 * The judge a stream's shape checks read: the chunk object at every level, the strict profile too
 * when the run is strict. The same compiled validators ctx.judge uses (`validatorFor`), looked up
 * once per stream rather than once per chunk: at the spec's max output a stream has 384k chunks,
 * and the lookup (a schema id built and hashed each time) costs more than judging a chunk does.
 */
export function chunkJudge(spec: Spec, strict: boolean): (chunk: Json) => Violation[] {
  const byDefault = validatorFor(spec, 'chat_completion_chunk', { profile: 'default' });
  if (!strict) return byDefault;
  const byStrict = validatorFor(spec, 'chat_completion_chunk', { profile: 'strict' });
  // The strict profile repeats the default's findings; only its own (unlisted fields) are added.
  return (chunk) => {
    const found = byDefault(chunk);
    const unlisted = byStrict(chunk);
    return unlisted.length === 0 ? found : [...found, ...unlisted.filter((v) => v.level === 'strict')];
  };
}

/** The media type SSE is served as: the spec's (endpoints.yaml, the chat stream's content_type), else the SSE standard's. */
export function eventStreamType(spec: Spec): string {
  return spec.endpoints.chat_completions?.stream?.content_type?.value ?? 'text/event-stream';
}

/** Whether a response is served as an SSE stream (parameters such as `; charset=utf-8` allowed). */
export function isEventStream(spec: Spec, res: CheckResponse): boolean {
  return (res.headers['content-type'] ?? '').startsWith(eventStreamType(spec));
}

/** Reads an SSE response incrementally: each event is parsed, judged and folded in as it arrives, then dropped. */
export async function readStream(res: CheckResponse, options: ReadStreamOptions = {}): Promise<ReadStream> {
  const out: ReadStream = {
    chunks: 0,
    choiceChunks: 0,
    ids: { first: [], more: false },
    finishes: samples(),
    message: emptyMessage(),
    malformed: samples(),
    done: false,
    afterDone: samples(),
    comments: 0,
    errorEvents: samples(),
    earlierUsage: samples(),
  };
  const assembler = new Assembler();
  // The usage last seen and its JSON: a usage repeated as it was adds nothing to judge.
  let usageSeen: { chunk: number; usage: Json; text: string } | undefined;
  const ids = new Set<unknown>();
  let lastId: unknown = NO_CHUNK;
  // The chunk before the last, and whether each carries a finish_reason: the last may be the usage carrier.
  let beforeLast: Json | undefined;
  let beforeLastFinished = false;
  let lastFinished = false;
  const judge = options.judge;
  const violations: Partial<Record<Level, Samples<ChunkViolation>>> = {};
  if (judge) out.violations = violations;
  try {
    for await (const event of res.events()) {
      const data = event.data;
      if (event.kind === 'comment') {
        out.comments++;
        continue;
      }
      if (event.kind === 'after-done') {
        note(out.afterDone, data);
        continue;
      }
      if (event.kind === 'done') {
        out.done = true;
        continue;
      }
      if (event.invalidUtf8 === true) {
        // JSON text is UTF-8: bytes that are not make the event malformed, whatever U+FFFD parses to.
        note(out.malformed, `(not valid UTF-8) ${data}`);
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        note(out.malformed, data);
        continue;
      }
      if (!isObject(parsed)) {
        note(out.malformed, data);
        continue;
      }
      if (parsed.error !== undefined && parsed.choices === undefined) {
        note(out.errorEvents, data);
        continue;
      }
      const index = out.chunks++;
      if (index === 0) out.first = parsed;
      beforeLast = out.last;
      beforeLastFinished = lastFinished;
      out.last = parsed;
      // Ids repeat chunk after chunk: comparing with the last one spares most set lookups.
      if (parsed.id !== lastId && !ids.has(parsed.id)) {
        // The set stops growing past the samples: only "more than MAX_SAMPLES" is told then.
        if (ids.size < MAX_SAMPLES) ids.add(parsed.id);
        else out.ids.more = true;
      }
      lastId = parsed.id;
      if (Array.isArray(parsed.choices) && parsed.choices.length > 0) out.choiceChunks += 1;
      lastFinished = assembler.add(parsed);
      if (lastFinished) push(out.finishes, index);
      if (parsed.usage !== undefined && parsed.usage !== null) {
        out.usageAt = { chunk: index, withChoices: Array.isArray(parsed.choices) && parsed.choices.length > 0 };
        if (isObject(parsed.usage)) {
          const text = JSON.stringify(parsed.usage);
          if (usageSeen !== undefined && usageSeen.text !== text) push(out.earlierUsage, { chunk: usageSeen.chunk, usage: usageSeen.usage });
          usageSeen = { chunk: index, usage: parsed.usage, text };
        }
      }
      if (judge) {
        const found = judge(parsed);
        for (let i = 0; i < found.length; i++) push((violations[found[i]!.level] ??= samples()), { ...found[i]!, chunk: index });
      }
    }
  } catch (err) {
    out.error = (err as Error).message;
  }
  out.message = assembler.message();
  out.ids.first = [...ids];
  if (out.last !== undefined && beforeLast !== undefined && beforeLastFinished && isUsageCarrier(out.last)) {
    out.chunks -= 1;
    out.usageCarrier = { chunk: out.chunks, body: out.last };
    out.last = beforeLast;
  }
  // An error event is the server giving up on the completion: the stream did not carry it whole.
  if (out.error === undefined && out.errorEvents.count > 0) {
    out.error = `the server sent an error event instead of a chunk${out.done ? '' : ', and no `data: [DONE]`'}: ${out.errorEvents.first[0]!.slice(0, 200)}`;
  }
  return out;
}

/** The shape of streaming.yaml `usage_carrier`: `choices: []` and a `usage` object (where it sits is readStream's). */
export function isUsageCarrier(chunk: Json): boolean {
  return Array.isArray(chunk.choices) && chunk.choices.length === 0 && isObject(chunk.usage);
}

/** Why a stream of no chunk shows nothing: a property of each chunk holds of none vacuously, and no message adds up. */
export const NO_CHUNK_READ = 'the stream carried no chunk, so there is nothing of its chunks or its message to judge';

/**
 * A stream that broke off nowhere and may still be incomplete: it ended with neither `[DONE]` nor a
 * finish_reason (a connection closed cleanly mid-answer). How a stream ends is the stream checks'
 * (`stream.events.done-last`), so the defect is handed there; undefined when the stream ended.
 */
export function endedUnfinished(s: ReadStream, res: CheckResponse): CheckOutcome | undefined {
  if (s.done || s.finishes.count > 0) return undefined;
  return handOffOnModel('stream.events.done-last', failure(`the stream ended after ${s.chunks} chunk(s) with neither \`[DONE]\` nor a finish_reason, so the message it adds up to may be incomplete`, res));
}

/** `the stream broke off after 3 chunk(s): <why>`: what a check that needs the whole stream reports. */
export function brokeOff(s: ReadStream): string {
  return `the stream broke off after ${s.chunks} chunk(s): ${s.error ?? 'no error'}`;
}

function samples<T>(): Samples<T> {
  return { count: 0, first: [] };
}

function push<T>(s: Samples<T>, value: T): void {
  s.count++;
  if (s.first.length < MAX_SAMPLES) s.first.push(value);
}

/** An odd event, cut to SAMPLE_CHARS and copied, so the sample does not pin the text it was cut from. */
function note(s: Samples<string>, data: string): void {
  s.count++;
  if (s.first.length < MAX_SAMPLES) s.first.push(data.length > SAMPLE_CHARS ? Buffer.from(data.slice(0, SAMPLE_CHARS), 'utf8').toString('utf8') : data);
}

function emptyMessage(): AssembledMessage {
  return { content: { text: '', chars: 0 }, reasoning: { text: '', chars: 0 }, toolCalls: [], moreToolCalls: false, finishReason: null, usage: undefined };
}

/** Text gathered piece by piece, keeping the first MAX_TEXT_CHARS characters and counting the rest. */
class TextSink {
  #pieces: string[] = [];
  #kept = 0;
  chars = 0;

  push(piece: string): void {
    this.chars += piece.length;
    if (this.#kept >= MAX_TEXT_CHARS || piece === '') return;
    const take = piece.length <= MAX_TEXT_CHARS - this.#kept ? piece : piece.slice(0, MAX_TEXT_CHARS - this.#kept);
    this.#pieces.push(take);
    this.#kept += take.length;
    if (this.#pieces.length >= JOIN_EVERY) this.#pieces = [this.#pieces.join('')];
  }

  result(): StreamText {
    return { text: this.#pieces.join(''), chars: this.chars };
  }
}

interface CallSink {
  id?: string;
  name: TextSink;
  arguments: TextSink;
}

/** Folds chunks into the message they add up to, one at a time. */
class Assembler {
  #content = new TextSink();
  #reasoning = new TextSink();
  #calls = new Map<number, CallSink>();
  #moreCalls = false;
  #nextIndex = 0;
  #finishReason: unknown = null;
  #usage: unknown;

  /** Adds one chunk; true when it carries a finish_reason. */
  add(chunk: Json): boolean {
    if (chunk.usage !== undefined && chunk.usage !== null) this.#usage = chunk.usage;
    let finished = false;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      if (!isObject(choice)) continue;
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
        this.#finishReason = choice.finish_reason;
        finished = true;
      }
      if (!isObject(choice.delta)) continue;
      const delta = choice.delta;
      for (const key in delta) {
        const value = delta[key];
        if (key === 'tool_calls') {
          if (Array.isArray(value)) for (const tc of value) this.#addToolCall(tc);
        } else if (typeof value !== 'string' || key === 'role') continue;
        else if (key === 'content') this.#content.push(value);
        // The reasoning field's name inside delta is not stated: any other text field counts.
        else this.#reasoning.push(value);
      }
    }
    return finished;
  }

  #addToolCall(tc: unknown): void {
    if (!isObject(tc)) return;
    // The description shows no field of a tool call but `function`: a delta without `index` goes on
    // with the call before it, unless it starts one (a new `id`, or no call yet).
    const last = this.#nextIndex - 1;
    const continues = last >= 0 && (typeof tc.id !== 'string' || tc.id.slice(0, SAMPLE_CHARS) === this.#calls.get(last)?.id);
    const index = typeof tc.index === 'number' ? tc.index : continues ? last : this.#nextIndex;
    this.#nextIndex = Math.max(this.#nextIndex, index + 1);
    let call = this.#calls.get(index);
    if (!call) {
      if (this.#calls.size >= MAX_TOOL_CALLS) {
        this.#moreCalls = true;
        return;
      }
      call = { name: new TextSink(), arguments: new TextSink() };
      this.#calls.set(index, call);
    }
    if (typeof tc.id === 'string') call.id = tc.id.slice(0, SAMPLE_CHARS);
    const fn = isObject(tc.function) ? tc.function : {};
    if (typeof fn.name === 'string') call.name.push(fn.name);
    if (typeof fn.arguments === 'string') call.arguments.push(fn.arguments);
  }

  message(): AssembledMessage {
    const toolCalls = [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, c]): AssembledToolCall => ({ ...(c.id === undefined ? {} : { id: c.id }), name: c.name.result(), arguments: c.arguments.result() }));
    return { content: this.#content.result(), reasoning: this.#reasoning.result(), toolCalls, moreToolCalls: this.#moreCalls, finishReason: this.#finishReason, usage: this.#usage };
  }
}
