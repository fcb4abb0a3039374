import { createParser, type EventSourceParser } from 'eventsource-parser';
import { Utf8Checker } from './utf8.ts';

/**
 * Where an event stands in a chat stream: a `data:` event before `[DONE]`, the `[DONE]` event, any
 * event after it, or a comment line (`: keep-alive`), which may come anywhere.
 */
export type SseEventKind = 'data' | 'done' | 'after-done' | 'comment';

/** One server-sent event as it arrived. A comment's data is `:` + its text (the recorded form). */
export interface SseEvent {
  kind: SseEventKind;
  data: string;
  event?: string;
  /** Milliseconds since the response headers arrived (what the caller fed with the bytes). */
  at: number;
  /** Set when bytes of this event were not UTF-8 (its data holds U+FFFD in their place). */
  invalidUtf8?: true;
}

/** What a stream amounts to once read, in a size that does not grow with the stream. */
export interface SseFacts {
  /** Events that are not comments, `[DONE]` and what followed it included. */
  events: number;
  comments: number;
  /** Distinct comment texts, trimmed, in order of first appearance (at most MAX_DISTINCT). */
  commentKinds: string[];
  /** Whether a `data: [DONE]` event came. */
  done: boolean;
  eventsAfterDone: number;
  /** Events that carry an `event:` name, and the distinct names (at most MAX_DISTINCT). */
  namedEvents: number;
  eventNames: string[];
  /** The text after the last blank line, when the stream does not end on one (and it is not blank). */
  unterminatedTail?: string;
  /**
   * The event that text holds, when it holds one (a `data` field): the stream ended inside it. An
   * SSE client discards it; it was not handed out.
   */
  unfinished?: { data: string; event?: string };
  /** Where the bytes first stopped being UTF-8 (`byte 0xC3 at offset 17`), when fed as bytes. */
  invalidUtf8?: string;
  /** Set once one event or line outgrew `maxEventChars`; nothing fed after it is read. */
  overflow?: string;
}

export interface SseFoldOptions {
  /** One event or line longer than this is not a chat stream: reading stops and `overflow` is set. */
  maxEventChars?: number;
}

/** A stream of many distinct keep-alive texts or event names is odd enough; more are only counted. */
const MAX_DISTINCT = 20;
/** Two line ends in a row: an SSE event boundary. */
const BOUNDARY = /(?:\r\n|\n|\r(?!\n))(?:\r\n|\n|\r(?!\n))/g;
const DONE = '[DONE]';

/**
 * The one reader of server-sent events: fed bytes or text piece by piece (a piece may cut a line, an
 * event or a character anywhere), it hands out each event as it completes, classified (`kind`), and
 * keeps the facts of the stream (`SseFacts`): `[DONE]` and what followed it, comments, event names,
 * an unfinished last event, bytes that are not UTF-8. It holds one unfinished event, however long the
 * stream. Events are split by eventsource-parser, the framing a conforming client reads.
 */
export class SseFold {
  readonly facts: SseFacts = { events: 0, comments: 0, commentKinds: [], done: false, eventsAfterDone: 0, namedEvents: 0, eventNames: [] };
  readonly #onEvent: (event: SseEvent) => void;
  readonly #parser: EventSourceParser;
  readonly #decoder = new TextDecoder('utf-8');
  #utf8: Utf8Checker | undefined;
  #at = 0;
  #ended = false;
  /** Set while the end is flushed: an event completed then was never terminated. */
  #flushing = false;
  /** The text since the last event boundary, in pieces (a long event is never copied whole). */
  #tail: string[] = [];
  /** The line ends that close the tail (a boundary may start there). */
  #run = '';

  constructor(onEvent: (event: SseEvent) => void, options: SseFoldOptions = {}) {
    this.#onEvent = onEvent;
    this.#parser = createParser({
      ...(options.maxEventChars === undefined ? {} : { maxBufferSize: options.maxEventChars }),
      onEvent: (message) => this.#event(message.data, message.event),
      // The parser drops one space after the colon; the recorded form puts the colon back.
      onComment: (comment) => this.#comment(comment),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.facts.overflow ??= `one event or line is longer than ${options.maxEventChars} characters`;
      },
    });
  }

  /** Feeds bytes as they arrived, `at` milliseconds after the response headers. */
  feedBytes(bytes: Uint8Array, at = this.#at): void {
    this.#at = at;
    const utf8 = (this.#utf8 ??= new Utf8Checker());
    utf8.push(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (utf8.bad !== undefined) this.facts.invalidUtf8 ??= utf8.bad;
    this.feed(this.#decoder.decode(bytes, { stream: true }));
  }

  /** Feeds text, `at` milliseconds after the response headers. */
  feed(text: string, at = this.#at): void {
    if (this.#ended) throw new Error('SseFold: fed after end()');
    this.#at = at;
    if (text === '' || this.facts.overflow !== undefined) return;
    this.#parser.feed(text);
    this.#track(text);
  }

  /** Ends the stream: a last event never closed by a blank line is noted as `unfinished`, not handed out. */
  end(): SseFacts {
    if (this.#ended) return this.facts;
    if (this.#utf8 !== undefined) {
      this.#utf8.end();
      if (this.#utf8.bad !== undefined) this.facts.invalidUtf8 ??= this.#utf8.bad;
      this.feed(this.#decoder.decode());
    }
    this.#ended = true;
    if (this.facts.overflow !== undefined) return this.facts;
    const tail = this.#tail.join('');
    if (tail.trim() !== '') this.facts.unterminatedTail = tail;
    // A blank line completes what the body left open, as a client flushing at the end would read it.
    this.#flushing = true;
    this.#parser.feed('\n\n');
    this.#tail = [];
    return this.facts;
  }

  #event(data: string, name: string | undefined): void {
    if (this.#flushing) {
      this.facts.unfinished = name === undefined ? { data } : { data, event: name };
      return;
    }
    const facts = this.facts;
    facts.events += 1;
    if (name !== undefined) {
      facts.namedEvents += 1;
      remember(facts.eventNames, name);
    }
    let kind: SseEventKind = 'data';
    if (facts.done) {
      kind = 'after-done';
      facts.eventsAfterDone += 1;
    } else if (data === DONE) {
      kind = 'done';
      facts.done = true;
    }
    const event: SseEvent = name === undefined ? { kind, data, at: this.#at } : { kind, data, event: name, at: this.#at };
    if (this.#utf8?.bad !== undefined && data.includes('\uFFFD')) event.invalidUtf8 = true;
    this.#onEvent(event);
  }

  #comment(comment: string): void {
    this.facts.comments += 1;
    remember(this.facts.commentKinds, comment.trim());
    this.#onEvent({ kind: 'comment', data: `:${comment}`, at: this.#at });
  }

  /**
   * Keeps the text after the last event boundary. A boundary that ends in the new piece can begin
   * only in the line ends that close the tail (`#run`), so only they and the new piece are scanned;
   * a scan from there pairs line ends as a scan of the whole body does. A final CR is held back: it
   * may be half of a CRLF that the next piece completes.
   */
  #track(text: string): void {
    const probe = this.#run + text;
    const end = probe.includes('\r') ? lastBoundaryEnd(probe.endsWith('\r') ? probe.slice(0, -1) : probe) : lastLfBoundaryEnd(probe);
    if (end > 0) {
      const after = probe.slice(end);
      this.#tail = [after];
      this.#run = trailingLineEnds(after);
    } else {
      this.#tail.push(text);
      this.#run = trailingLineEnds(probe);
    }
  }
}

/** An event as bytes on the wire (the reader's inverse): a comment (`:...`) as one, else its name and its data, line by line. */
export function sseFrame(e: { data: string; event?: string }): string {
  if (e.data.startsWith(':')) return `${e.data}\n\n`;
  return `${e.event !== undefined ? `event: ${e.event}\n` : ''}${e.data.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`;
}

/** Folds a whole SSE text: its events, in order, and its facts (for captures and tests). */
export function foldSse(text: string): { events: SseEvent[]; facts: SseFacts } {
  const events: SseEvent[] = [];
  const fold = new SseFold((e) => events.push(e));
  fold.feed(text);
  return { events, facts: fold.end() };
}

/** Where the last event boundary ends (0: none), pairing line ends left to right as a parser does. */
function lastBoundaryEnd(text: string): number {
  let end = 0;
  BOUNDARY.lastIndex = 0;
  for (let m = BOUNDARY.exec(text); m !== null; m = BOUNDARY.exec(text)) end = m.index + m[0].length;
  return end;
}

/**
 * The same for a text without CR, found from its end (the run path reads long streams, where a scan
 * of every boundary costs): in the last run of k line feeds, pairs end at its start + 2 * floor(k / 2).
 */
function lastLfBoundaryEnd(text: string): number {
  const last = text.lastIndexOf('\n\n');
  if (last === -1) return 0;
  let start = last;
  while (start > 0 && text.charCodeAt(start - 1) === 10) start -= 1;
  return start + 2 * Math.floor((last + 2 - start) / 2);
}

/** The line-end characters at the end of a text (at most a few: two line ends make a boundary). */
function trailingLineEnds(text: string): string {
  let i = text.length;
  while (i > 0 && (text.charCodeAt(i - 1) === 10 || text.charCodeAt(i - 1) === 13)) i -= 1;
  return text.slice(i);
}

function remember(list: string[], value: string): void {
  if (list.length < MAX_DISTINCT && !list.includes(value)) list.push(value);
}
