import { HarnessError } from '#harness/core/errors/index.ts';
import type { Exchange, RecordedEvent, RecordedResponse } from '#harness/core/exchange.ts';
import { redactText } from '#harness/core/redact.ts';
import { SseFold } from '#harness/core/sseFold.ts';
import { firstBadUtf8 } from '#harness/core/utf8.ts';
import type { BodyPump } from './bodyPump.ts';
import { CappedBytes } from './cappedBytes.ts';
import { MalformedResponseError } from './errors.ts';
import { toTransportError } from './networkError.ts';
import type { Timing } from './timing.ts';
import type { SendResult, SseEvent } from './types.ts';

/** One event (or one line) longer than this is not a chat stream: the stream is malformed. */
const MAX_EVENT_CHARS = 4 * 1024 * 1024;

export interface RecordingResponseInit {
  status: number;
  headers: Record<string, string>;
  /** Holds the request and `response` (status, redacted headers) already. */
  exchange: Exchange & { response: RecordedResponse };
  pump: BodyPump;
  secrets: readonly string[];
  maxRecordedBytes: number;
  /** The most bytes of a stream read; past it the stream ends with BODY_TOO_LARGE. */
  maxStreamBytes: number;
  timing: Timing;
  /** Milliseconds from dispatching the final attempt to its response headers. */
  headersMs: number;
  /** Called when the body has been read to its end or broke off (the exchange is then complete). */
  onSettled?: () => void;
}

/**
 * A response whose body is read one way, text (`text()`, `json()`) or events (`events()`), and
 * recorded into `exchange.response` as it is read: what the caller gets is what arrived, what is
 * recorded is redacted and cut at `maxRecordedBytes`.
 *
 * Recorded: `body` when the text parses as JSON (and was not cut), else `text`; for a stream,
 * `events` (what `events()` yielded: events, and comments as `:` + comment) and `text`, the stream
 * as it arrived, for framing evidence.
 * `durationMs` runs from dispatching the final attempt to the end of the body once it is read.
 *
 * Bounded whatever the endpoint does: `text()` reads at most `maxRecordedBytes` (all it can hand
 * back) and then drops the connection, so a huge or endless body ends; `events()` reads at most
 * `maxStreamBytes`. Bytes that are not UTF-8 are decoded as U+FFFD by `text()` (as `fetch` does),
 * refused by `json()` (JSON is UTF-8), and flag their event (`invalidUtf8`) in `events()`.
 * A body that cannot be read as asked sets `exchange.error`, so the evidence says why.
 */
export class RecordingResponse implements SendResult {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly exchange: Exchange & { response: RecordedResponse };
  readonly #init: RecordingResponseInit;
  #mode: 'text' | 'events' | undefined;
  #text: Promise<string> | undefined;
  /** Where the text read first stops being UTF-8 (`byte 0xC3 at offset 17`), when it does. */
  #badUtf8: string | undefined;

  constructor(init: RecordingResponseInit) {
    this.status = init.status;
    this.headers = init.headers;
    this.exchange = init.exchange;
    this.#init = init;
  }

  text(): Promise<string> {
    this.#claim('text');
    this.#text ??= this.#readText();
    return this.#text;
  }

  async json(): Promise<unknown> {
    const text = await this.text();
    if (this.exchange.response.truncated) {
      throw this.#malformedJson('BODY_TOO_LARGE', `response body is not JSON the harness can read (the body was cut at ${this.#init.maxRecordedBytes} bytes: the harness reads no more of a body, which may never end)`, text);
    }
    if (this.#badUtf8 !== undefined) {
      throw this.#malformedJson('INVALID_UTF8', `response body is not JSON (it is not valid UTF-8: ${this.#badUtf8})`, text);
    }
    try {
      // JSON.parse skips leading whitespace, so the blank lines some servers send first are fine.
      return JSON.parse(text);
    } catch (err) {
      const why = text.trim() === '' ? 'the body is empty' : (err as Error).message;
      throw this.#malformedJson('MALFORMED_JSON', `response body is not JSON (${why})`, text, err);
    }
  }

  #malformedJson(code: 'MALFORMED_JSON' | 'INVALID_UTF8' | 'BODY_TOO_LARGE', what: string, text: string, cause?: unknown): MalformedResponseError {
    return new MalformedResponseError(code, this.#redact(what), this.exchange, { text: this.#redact(text), ...(cause === undefined ? {} : { cause }) });
  }

  events(): AsyncIterable<SseEvent> {
    this.#claim('events');
    return this.#readEvents();
  }

  #claim(mode: 'text' | 'events'): void {
    if (this.#mode === undefined) {
      this.#mode = mode;
      return;
    }
    if (this.#mode === 'text' && mode === 'text') return;
    const { method, url } = this.exchange.request;
    throw new HarnessError('HARNESS_BODY_USED', `the body was already read as ${this.#mode}; it can be read one way, once — ${method} ${url}`);
  }

  async #readText(): Promise<string> {
    const { pump } = this.#init;
    const kept = new CappedBytes(this.#init.maxRecordedBytes);
    try {
      for await (const chunk of pump.read()) {
        kept.push(chunk.bytes);
        // Nothing past the cap could be handed back: stop here, so a huge or endless body ends.
        if (kept.truncated) {
          pump.cancel();
          break;
        }
      }
    } catch (err) {
      this.#recordText(kept, false);
      const error = this.#transportError(err);
      this.#init.onSettled?.();
      throw error;
    }
    if (!kept.truncated) this.#badUtf8 = firstBadUtf8(kept.bytes());
    this.#recordText(kept, true);
    this.#init.onSettled?.();
    return kept.text();
  }

  #recordText(kept: CappedBytes, complete: boolean): void {
    const response = this.exchange.response;
    const text = kept.text();
    let parsed: { value: unknown } | undefined;
    if (complete && !kept.truncated && this.#badUtf8 === undefined) {
      try {
        parsed = { value: JSON.parse(text) };
      } catch {
        parsed = undefined;
      }
    }
    // The record's own copy, parsed from the redacted text: the check reads (and may change) `parsed.value`.
    if (parsed !== undefined) response.body = JSON.parse(this.#redact(text)) as unknown;
    else response.text = this.#redact(text);
    if (kept.truncated) response.truncated = true;
    this.#recordDuration();
  }

  async *#readEvents(): AsyncGenerator<SseEvent, void, undefined> {
    const { pump, maxRecordedBytes, maxStreamBytes } = this.#init;
    const response = this.exchange.response;
    const recorded: RecordedEvent[] = [];
    response.events = recorded;
    const raw = new CappedBytes(maxRecordedBytes);
    let recordedChars = 0;
    let readBytes = 0;
    const ready: SseEvent[] = [];
    const fold = new SseFold(
      (event) => {
        ready.push(event);
        if (response.truncated || recordedChars + event.data.length > maxRecordedBytes) {
          response.truncated = true;
          return;
        }
        recordedChars += event.data.length;
        const data = this.#redact(event.data);
        recorded.push(event.event === undefined ? { at: event.at, data } : { at: event.at, data, event: event.event });
      },
      { maxEventChars: MAX_EVENT_CHARS },
    );

    try {
      try {
        for await (const chunk of pump.read()) {
          raw.push(chunk.bytes);
          readBytes += chunk.bytes.length;
          fold.feedBytes(chunk.bytes, chunk.at);
          while (ready.length > 0) yield ready.shift()!;
          if (fold.facts.overflow !== undefined) throw this.#malformedStream(fold.facts.overflow);
          if (readBytes > maxStreamBytes) throw this.#malformedStream(`the stream is longer than ${maxStreamBytes} bytes, the most the harness reads of one stream (it may never end)`, 'BODY_TOO_LARGE');
        }
      } catch (err) {
        throw err instanceof MalformedResponseError ? err : this.#transportError(err);
      }
      if (pump.dropped) throw this.#malformedStream(`the stream was not read until more than ${readBytes} bytes had arrived; the harness dropped the connection`, 'BODY_TOO_LARGE');
      const facts = fold.end();
      while (ready.length > 0) yield ready.shift()!;
      if (facts.unfinished !== undefined) throw this.#malformedStream('the stream ended inside an event: its last field is not followed by a blank line');
    } finally {
      // A reader that stops early (break, return, throw) cancels the body and frees the connection.
      if (!pump.done) pump.cancel();
      response.text = this.#redact(raw.text());
      if (raw.truncated) response.truncated = true;
      this.#recordDuration();
      this.#init.onSettled?.();
    }
  }

  #malformedStream(what: string, code: 'MALFORMED_STREAM' | 'BODY_TOO_LARGE' = 'MALFORMED_STREAM'): MalformedResponseError {
    this.#init.pump.cancel();
    return new MalformedResponseError(code, this.#redact(what), this.exchange);
  }

  #transportError(err: unknown): unknown {
    return toTransportError(err, this.exchange, this.#init.secrets, this.#init.timing);
  }

  #recordDuration(): void {
    const settledAt = this.#init.pump.settledAt;
    if (settledAt !== undefined) this.exchange.response.durationMs = Math.round(this.#init.headersMs + settledAt);
  }

  #redact(text: string): string {
    return redactText(text, this.#init.secrets);
  }
}
