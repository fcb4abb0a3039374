import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One `data:` payload (or one line of a line-per-chunk capture): parsed JSON, or the raw text when it did not parse. */
export type Payload = { ok: true; value: unknown } | { ok: false; text: string; error: string };

/** A captured stream read back into its chunk payloads and framing facts. */
export interface SplitStream {
  /** How the capture was framed: SSE (`data:` lines) or one chunk JSON per line (no framing). */
  framing: 'sse' | 'lines';
  /** Each payload in order, `[DONE]` excluded: parsed JSON, or the raw text when it did not parse. */
  payloads: Payload[];
  /** Comment lines (`: keep-alive`), trimmed. */
  comments: string[];
  /** Whether a `data: [DONE]` event came; undefined for line-framed captures, which carry no framing. */
  done: boolean | undefined;
  /** Events after `[DONE]`. */
  eventsAfterDone: number;
  /** Event names (`event:` fields); the description shows none. */
  namedEvents: string[];
  /** Text after the last event boundary that never closed (an SSE client discards it). */
  unterminatedTail?: string;
}

/**
 * What a stream amounts to once read, in a size that does not grow with the stream: counts, and the
 * distinct comment texts and event names (at most MAX_DISTINCT of each).
 */
export interface StreamSummary {
  framing: 'sse' | 'lines';
  /** Payloads handed out, `[DONE]` excluded. */
  payloads: number;
  comments: number;
  /** Distinct comment texts, trimmed, in order of first appearance. */
  commentKinds: string[];
  done: boolean | undefined;
  eventsAfterDone: number;
  /** Events that carry an `event:` name. */
  namedEvents: number;
  /** Distinct event names, in order of first appearance. */
  eventNames: string[];
  unterminatedTail?: string;
}

export interface SplitterHandlers {
  /** Each payload as it completes, with its index among payloads. */
  onPayload(payload: Payload, index: number): void;
  onComment?(comment: string): void;
  onNamedEvent?(name: string): void;
}

/** A stream of many distinct keep-alive texts or event names is odd enough; more are only counted. */
const MAX_DISTINCT = 20;

/** Whether a text is framed as SSE: some line is a `data:` field (comments alone do not make a stream). */
export function looksLikeSse(text: string): boolean {
  return /^data:/m.test(text);
}

export function parsePayload(text: string): Payload {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, text, error: (err as Error).message };
  }
}

/** Two line ends in a row: an SSE event boundary. */
const BOUNDARY = /(?:\r\n|\n|\r(?!\n))(?:\r\n|\n|\r(?!\n))/g;

/**
 * Splits a stream fed piece by piece (pieces may cut a line or an event anywhere) and hands each
 * payload out as it completes, keeping nothing of it: what it holds is one unfinished line or
 * event and the counts of StreamSummary, however long the stream. SSE is split with
 * eventsource-parser (the framing a conforming client reads); `lines` takes one chunk JSON per
 * non-empty line (a fixture format whose `data: ` prefixes and `[DONE]` were stripped).
 */
export class StreamSplitter {
  readonly #handlers: SplitterHandlers;
  readonly #summary: StreamSummary;
  readonly #parser: EventSourceParser | undefined;
  /** SSE: the text since the last event boundary, in pieces. */
  #tail: string[] = [];
  /** SSE: the line ends that close the tail (a boundary may start there). */
  #run = '';
  /** Lines: the unfinished last line. */
  #partial = '';
  #ended = false;

  constructor(framing: 'sse' | 'lines', handlers: SplitterHandlers) {
    this.#handlers = handlers;
    this.#summary = { framing, payloads: 0, comments: 0, commentKinds: [], done: framing === 'sse' ? false : undefined, eventsAfterDone: 0, namedEvents: 0, eventNames: [] };
    if (framing === 'sse') {
      this.#parser = createParser({
        onEvent: (event) => {
          const s = this.#summary;
          if (s.done === true) s.eventsAfterDone += 1;
          if (event.event !== undefined) {
            s.namedEvents += 1;
            remember(s.eventNames, event.event);
            this.#handlers.onNamedEvent?.(event.event);
          }
          if (event.data === '[DONE]') {
            s.done = true;
            return;
          }
          this.#payload(event.data);
        },
        onComment: (comment) => {
          const trimmed = comment.trim();
          this.#summary.comments += 1;
          remember(this.#summary.commentKinds, trimmed);
          this.#handlers.onComment?.(trimmed);
        },
      });
    }
  }

  feed(text: string): void {
    if (this.#ended) throw new Error('StreamSplitter: fed after end()');
    if (text === '') return;
    if (this.#parser === undefined) return this.#feedLines(text);
    this.#parser.feed(text);
    this.#track(text);
  }

  /** Ends the stream and returns its summary. */
  end(): StreamSummary {
    if (this.#ended) return this.#summary;
    this.#ended = true;
    if (this.#parser === undefined) {
      this.#line(this.#partial);
      this.#partial = '';
      return this.#summary;
    }
    // An event the body never closed is discarded at end of input, as a client would; it is noted instead.
    this.#parser.reset({ consume: true });
    const tail = this.#tail.join('');
    if (tail.trim() !== '') this.#summary.unterminatedTail = tail;
    this.#tail = [];
    return this.#summary;
  }

  #payload(text: string): void {
    const index = this.#summary.payloads;
    this.#summary.payloads += 1;
    this.#handlers.onPayload(parsePayload(text), index);
  }

  /**
   * Keeps the text after the last event boundary, in pieces (a long event is never copied whole).
   * A boundary that ends in the new piece can begin only in the line ends that close the tail (`#run`),
   * so only they and the new piece are scanned; a scan from there pairs line ends as a scan of the
   * whole body does. A final CR is held back: it may be half of a CRLF that the next piece completes.
   */
  #track(text: string): void {
    const probe = this.#run + text;
    const scanned = probe.endsWith('\r') ? probe.slice(0, -1) : probe;
    let end = 0;
    BOUNDARY.lastIndex = 0;
    for (let m = BOUNDARY.exec(scanned); m !== null; m = BOUNDARY.exec(scanned)) end = m.index + m[0].length;
    if (end > 0) {
      const after = probe.slice(end);
      this.#tail = [after];
      this.#run = trailingLineEnds(after);
    } else {
      this.#tail.push(text);
      this.#run = trailingLineEnds(probe);
    }
  }

  #feedLines(text: string): void {
    const lines = (this.#partial + text).split(/\r\n|\n|\r/);
    // The last piece is unfinished until a line end or the end of input (a CR may be half a CRLF: a
    // CRLF cut in two gives a line end and an empty line, which is skipped as blank).
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  #line(line: string): void {
    if (line.trim() === '') return;
    if (line.trim() === '[DONE]') {
      this.#summary.done = true;
      return;
    }
    this.#payload(line);
  }
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

/** Splits a whole body, keeping every payload (for tests and small captures; judging uses StreamSplitter). */
function split(text: string, framing: 'sse' | 'lines'): SplitStream {
  const payloads: Payload[] = [];
  const comments: string[] = [];
  const namedEvents: string[] = [];
  const splitter = new StreamSplitter(framing, {
    onPayload: (p) => payloads.push(p),
    onComment: (c) => comments.push(c),
    onNamedEvent: (n) => namedEvents.push(n),
  });
  splitter.feed(text);
  const s = splitter.end();
  const out: SplitStream = { framing, payloads, comments, done: s.done, eventsAfterDone: s.eventsAfterDone, namedEvents };
  if (s.unterminatedTail !== undefined) out.unterminatedTail = s.unterminatedTail;
  return out;
}

/** Splits an SSE body into events with eventsource-parser (the framing a conforming client reads). */
export function splitSse(text: string): SplitStream {
  return split(text, 'sse');
}

/** One chunk JSON per non-empty line (a fixture format whose `data: ` prefixes and `[DONE]` were stripped). */
export function splitLines(text: string): SplitStream {
  return split(text, 'lines');
}
