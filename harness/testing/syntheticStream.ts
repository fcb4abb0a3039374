/**
 * A synthetic chat stream of any length, for benchmarks and budget tests (test code only): the
 * chunk shape the emulator writes (harness/emulator/routes/chat.ts), one token per content delta,
 * a final chunk with finish_reason and usage, then `data: [DONE]`. Generated lazily and
 * deterministically, so the same options give the same bytes and a long stream never sits whole
 * in memory unless the caller keeps it. Beside it, the readers the benchmarks and the budget test
 * time on those bytes: the floor (eventsource-parser + JSON.parse) and the run's own path.
 */
import { DEFAULT_TIMING } from '#harness/transport/timing.ts';
import { createParser } from 'eventsource-parser';
import { chunkJudge, readStream } from '#harness/checks/support/stream.ts';
import type { Spec } from '#harness/spec/model.ts';
import { parseQuantity } from '#harness/spec/quantity.ts';
import { BodyPump, type BodySource } from '#harness/transport/bodyPump.ts';
import { RecordingResponse } from '#harness/transport/recordingResponse.ts';

export interface SyntheticStreamOptions {
  /** Content tokens, one per delta. */
  tokens: number;
  /** The `model` every chunk names. */
  model: string;
  /** Bytes per body chunk, as a socket would hand them over (events are cut anywhere). Default 16 KiB. */
  chunkBytes?: number;
  /** finish_reason of the final chunk. Default `length` (a stream that ran to its max output). */
  finishReason?: string;
}

export const DEFAULT_CHUNK_BYTES = 16 * 1024;

/** Fixed, so the bytes are the same on every run. */
const ID = 'chatcmpl-5b0f3c1e-8f7a-4c2b-9d1e-0a6b7c8d9e0f';
const CREATED = 1_767_225_600;
const PROMPT_TOKENS = 12;
/** Word-like tokens, a few with non-ASCII characters so a chunk cut can fall inside a character. */
const VOCABULARY = [' the', ' quick', ' brown', ' fox', ' jumps', ' over', ' a', ' lazy', ' dog', '.', ',', ' and', ' then', ' café', ' naïve', ' —', ' 東京', ' 🦊', '\n', ' "quoted"', ' back\\slash', ' it', "'s", ' time'];

/** The model whose max output is the largest in the spec, and that bound (its decimal reading, which is within the bound however "K" is read). */
export function largestMaxOutput(spec: Spec): { model: string; tokens: number } {
  let best: { model: string; tokens: number } | undefined;
  for (const [model, m] of Object.entries(spec.models)) {
    const range = parseQuantity(m.max_output_tokens);
    if (range !== undefined && (best === undefined || range.low > best.tokens)) best = { model, tokens: range.low };
  }
  if (best === undefined) throw new Error('the spec states no max_output_tokens for any model');
  return best;
}

/** The i-th content token. */
export function tokenAt(i: number): string {
  return VOCABULARY[(i * 7) % VOCABULARY.length]!;
}

/** The assembled content of a stream of `tokens` tokens, for assertions on small streams. */
export function syntheticContent(tokens: number): string {
  let out = '';
  for (let i = 0; i < tokens; i += 1) out += tokenAt(i);
  return out;
}

/** The SSE events of the stream, each a complete `data: …\n\n` string. */
export function* syntheticEvents(options: SyntheticStreamOptions): Generator<string, void, undefined> {
  const head = `{"id":"${ID}","object":"chat.completion.chunk","created":${CREATED},"model":${JSON.stringify(options.model)},"choices":[{"index":0,"delta":`;
  const tail = (finish: string | null) => `,"logprobs":null,"finish_reason":${JSON.stringify(finish)}}]`;
  const event = (delta: string, finish: string | null = null, extra = '') => `data: ${head}${delta}${tail(finish)}${extra}}\n\n`;
  yield event('{"role":"assistant","content":""}');
  for (let i = 0; i < options.tokens; i += 1) yield event(`{"content":${JSON.stringify(tokenAt(i))}}`);
  const usage = {
    prompt_tokens: PROMPT_TOKENS,
    completion_tokens: options.tokens,
    total_tokens: PROMPT_TOKENS + options.tokens,
    prompt_cache_hit_tokens: 0,
    prompt_cache_miss_tokens: PROMPT_TOKENS,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
  yield event('{}', options.finishReason ?? 'length', `,"usage":${JSON.stringify(usage)}`);
  yield 'data: [DONE]\n\n';
}

/** The stream's bytes in pieces of exactly `chunkBytes` (the last one shorter), cut wherever they fall. */
export function* syntheticChunks(options: SyntheticStreamOptions): Generator<Buffer, void, undefined> {
  const size = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (!Number.isInteger(size) || size < 1) throw new Error(`chunkBytes must be a positive integer, got ${size}`);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for (const event of syntheticEvents(options)) {
    pending.push(Buffer.from(event, 'utf8'));
    pendingBytes += pending.at(-1)!.length;
    if (pendingBytes < size) continue;
    let all = Buffer.concat(pending, pendingBytes);
    while (all.length >= size) {
      // A copy, not a view: a reader that keeps one chunk must not pin the whole concatenation.
      yield Buffer.from(all.subarray(0, size));
      all = all.subarray(size);
    }
    pending = all.length > 0 ? [all] : [];
    pendingBytes = all.length;
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/** Total bytes and events (`[DONE]` included) of the stream, without keeping it. */
export function syntheticSize(options: SyntheticStreamOptions): { bytes: number; events: number } {
  let bytes = 0;
  let events = 0;
  for (const e of syntheticEvents(options)) {
    bytes += Buffer.byteLength(e, 'utf8');
    events += 1;
  }
  return { bytes, events };
}

/** The stream as a web ReadableStream of bytes, generated as it is pulled. */
export function syntheticBody(options: SyntheticStreamOptions): ReadableStream<Uint8Array> {
  const chunks = syntheticChunks(options);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

/** The stream as an HTTP response (status 200, text/event-stream), generated as it is read. */
export function syntheticResponse(options: SyntheticStreamOptions): Response {
  return new Response(syntheticBody(options), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** Byte chunks as a response body source (undici's body is one: async-iterable, with destroy()). */
export function bodySourceOf(chunks: Iterable<Buffer>): BodySource {
  const iterator = (async function* () {
    yield* chunks;
  })();
  return Object.assign(iterator, {
    destroy: () => {
      void iterator.return(undefined);
    },
  });
}

/** The floor stream judging is measured against: eventsource-parser plus JSON.parse of each data event, nothing kept. */
export async function parseFloor(source: AsyncIterable<Uint8Array>): Promise<number> {
  const decoder = new TextDecoder('utf-8');
  let parsed = 0;
  const parser = createParser({
    onEvent(event) {
      if (event.data === '[DONE]') return;
      JSON.parse(event.data);
      parsed += 1;
    },
  });
  for await (const bytes of source) parser.feed(decoder.decode(bytes, { stream: true }));
  parser.feed(decoder.decode());
  return parsed;
}

/**
 * A 200 text/event-stream response over `source`, built as the transport builds one for a run (1 MiB
 * recording cap), except for the stream cap: the transport's default (64 MiB) is below a stream at
 * the spec's max output (about 87 MB in this shape), so it is lifted here to time the reading itself.
 */
export function responseAsARun(source: BodySource, maxRecordedBytes = 1024 * 1024): RecordingResponse {
  const exchange = {
    request: { method: 'POST' as const, url: 'http://127.0.0.1/chat/completions', headers: {} },
    attempts: 1,
    response: { status: 200, headers: { 'content-type': 'text/event-stream' }, durationMs: 0 },
  };
  return new RecordingResponse({
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    exchange,
    pump: new BodyPump(source, performance.now(), maxRecordedBytes),
    secrets: [],
    maxRecordedBytes,
    maxStreamBytes: Number.MAX_SAFE_INTEGER,
    timing: DEFAULT_TIMING,
    headersMs: 0,
  });
}

/**
 * A streamed answer judged as a run judges it: the transport's RecordingResponse reads the body
 * through its BodyPump, and readStream (checks/support) parses each event, judges it with the judge
 * the schema checks read (the chunk validator, default profile; `strict` adds the strict profile),
 * folds it into the assembled message and the stream checks' counts, and drops it.
 */
export async function judgeAsARun(spec: Spec, source: BodySource, options: { strict?: boolean } = {}): Promise<{ chunks: number; violations: number; contentChars: number }> {
  const judge = chunkJudge(spec, options.strict ?? false);
  const stream = await readStream(responseAsARun(source), { judge });
  if (stream.error !== undefined) throw new Error(`the stream broke off: ${stream.error}`);
  const violations = Object.values(stream.violations ?? {}).reduce((n, found) => n + found.count, 0);
  return { chunks: stream.chunks, violations, contentChars: stream.message.content.chars };
}
