import { createParser } from 'eventsource-parser';
import { HarnessError } from '#harness/core/errors/index.ts';
import type { Exchange, RecordedEvent, RecordedResponse } from '#harness/core/exchange.ts';
import { redactText, redactValue } from '#harness/core/redact.ts';
import type { BodyPump } from './bodyPump.ts';
import { CappedBytes } from './cappedBytes.ts';
import { MalformedResponseError } from './errors.ts';
import { toTransportError, type Timeouts } from './networkError.ts';
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
  timeouts: Timeouts;
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
 */
export class RecordingResponse implements SendResult {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly exchange: Exchange & { response: RecordedResponse };
  readonly #init: RecordingResponseInit;
  #mode: 'text' | 'events' | undefined;
  #text: Promise<string> | undefined;

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
    try {
      // JSON.parse skips leading whitespace, so the blank lines some servers send first are fine.
      return JSON.parse(text);
    } catch (err) {
      const why = text.trim() === '' ? 'the body is empty' : this.exchange.response.truncated ? `the body was cut at ${this.#init.maxRecordedBytes} bytes` : (err as Error).message;
      throw new MalformedResponseError('MALFORMED_JSON', this.#redact(`response body is not JSON (${why})`), this.exchange, {
        text: this.#redact(text),
        cause: err,
      });
    }
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
    const kept = new CappedBytes(this.#init.maxRecordedBytes);
    try {
      for await (const chunk of this.#init.pump.read()) kept.push(chunk.bytes);
    } catch (err) {
      this.#recordText(kept, false);
      const error = this.#transportError(err);
      this.#init.onSettled?.();
      throw error;
    }
    this.#recordText(kept, true);
    this.#init.onSettled?.();
    return kept.text();
  }

  #recordText(kept: CappedBytes, complete: boolean): void {
    const response = this.exchange.response;
    const text = kept.text();
    let parsed: { value: unknown } | undefined;
    if (complete && !kept.truncated) {
      try {
        parsed = { value: JSON.parse(text) };
      } catch {
        parsed = undefined;
      }
    }
    if (parsed !== undefined) response.body = redactValue(parsed.value, this.#init.secrets);
    else response.text = this.#redact(text);
    if (kept.truncated) response.truncated = true;
    this.#recordDuration();
  }

  async *#readEvents(): AsyncGenerator<SseEvent, void, undefined> {
    const { pump, maxRecordedBytes } = this.#init;
    const response = this.exchange.response;
    const recorded: RecordedEvent[] = [];
    response.events = recorded;
    const raw = new CappedBytes(maxRecordedBytes);
    let recordedChars = 0;
    let at = 0;
    const ready: SseEvent[] = [];
    /** Set while the end of the stream is flushed: an event completed then was never terminated. */
    let flushing = false;
    let unterminated = false;
    let overflow: string | undefined;

    const record = (event: SseEvent): void => {
      if (response.truncated || recordedChars + event.data.length > maxRecordedBytes) {
        response.truncated = true;
        return;
      }
      recordedChars += event.data.length;
      recorded.push({ ...event, data: this.#redact(event.data) });
    };
    const parser = createParser({
      maxBufferSize: MAX_EVENT_CHARS,
      onEvent: (message) => {
        if (flushing) {
          unterminated = true;
          return;
        }
        const event: SseEvent = message.event === undefined ? { data: message.data, at } : { data: message.data, event: message.event, at };
        record(event);
        ready.push(event);
      },
      // A comment is yielded and recorded as `:` + its text (the parser drops one space after the colon).
      onComment: (comment) => {
        const event: SseEvent = { data: `:${comment}`, at };
        record(event);
        ready.push(event);
      },
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') overflow = error.message;
      },
    });
    const decoder = new TextDecoder('utf-8');

    try {
      try {
        for await (const chunk of pump.read()) {
          at = chunk.at;
          raw.push(chunk.bytes);
          parser.feed(decoder.decode(chunk.bytes, { stream: true }));
          while (ready.length > 0) yield ready.shift()!;
          if (overflow !== undefined) throw this.#malformedStream(`one event or line is longer than ${MAX_EVENT_CHARS} characters`);
        }
      } catch (err) {
        throw err instanceof MalformedResponseError ? err : this.#transportError(err);
      }
      // The end of the stream: a blank line completes a last event that was never terminated.
      flushing = true;
      parser.feed(`${decoder.decode()}\n\n`);
      if (unterminated) throw this.#malformedStream('the stream ended inside an event: its last field is not followed by a blank line');
    } finally {
      // A reader that stops early (break, return, throw) cancels the body and frees the connection.
      if (!pump.done) pump.cancel();
      response.text = this.#redact(raw.text());
      if (raw.truncated) response.truncated = true;
      this.#recordDuration();
      this.#init.onSettled?.();
    }
  }

  #malformedStream(what: string): MalformedResponseError {
    this.#init.pump.cancel();
    return new MalformedResponseError('MALFORMED_STREAM', this.#redact(what), this.exchange);
  }

  #transportError(err: unknown): unknown {
    return toTransportError(err, this.exchange, this.#init.secrets, this.#init.timeouts);
  }

  #recordDuration(): void {
    const settledAt = this.#init.pump.settledAt;
    if (settledAt !== undefined) this.exchange.response.durationMs = Math.round(this.#init.headersMs + settledAt);
  }

  #redact(text: string): string {
    return redactText(text, this.#init.secrets);
  }
}
