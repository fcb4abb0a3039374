import { SseFold } from '#harness/core/sseFold.ts';

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

/**
 * Splits a stream fed piece by piece (pieces may cut a line or an event anywhere) and hands each
 * payload out as it completes, keeping nothing of it: what it holds is one unfinished line or
 * event and the counts of StreamSummary, however long the stream. SSE is read by the one SSE reader
 * (core/sseFold.ts); `lines` takes one chunk JSON per non-empty line (a fixture format whose
 * `data: ` prefixes and `[DONE]` were stripped).
 */
export class StreamSplitter {
  readonly #handlers: SplitterHandlers;
  readonly #framing: 'sse' | 'lines';
  readonly #fold: SseFold | undefined;
  #payloads = 0;
  /** Lines: whether a `[DONE]` line came. */
  #done = false;
  /** Lines: the unfinished last line. */
  #partial = '';
  #summary: StreamSummary | undefined;

  constructor(framing: 'sse' | 'lines', handlers: SplitterHandlers) {
    this.#handlers = handlers;
    this.#framing = framing;
    if (framing === 'sse') {
      this.#fold = new SseFold((event) => {
        if (event.event !== undefined) this.#handlers.onNamedEvent?.(event.event);
        if (event.kind === 'comment') this.#handlers.onComment?.(event.data.slice(1).trim());
        // What follows `[DONE]` is still judged (and counted as after it); a second `[DONE]` is not a payload.
        else if (event.data !== '[DONE]') this.#payload(event.data);
      });
    }
  }

  feed(text: string): void {
    if (this.#summary !== undefined) throw new Error('StreamSplitter: fed after end()');
    if (this.#fold !== undefined) this.#fold.feed(text);
    else this.#feedLines(text);
  }

  /** Ends the stream and returns its summary. An event the body never closed is not a payload, as a client discards it; it is noted. */
  end(): StreamSummary {
    if (this.#summary !== undefined) return this.#summary;
    if (this.#fold === undefined) {
      this.#line(this.#partial);
      this.#partial = '';
      this.#summary = { framing: 'lines', payloads: this.#payloads, comments: 0, commentKinds: [], done: this.#done || undefined, eventsAfterDone: 0, namedEvents: 0, eventNames: [] };
      return this.#summary;
    }
    const f = this.#fold.end();
    this.#summary = { framing: 'sse', payloads: this.#payloads, comments: f.comments, commentKinds: f.commentKinds, done: f.done, eventsAfterDone: f.eventsAfterDone, namedEvents: f.namedEvents, eventNames: f.eventNames };
    if (f.unterminatedTail !== undefined) this.#summary.unterminatedTail = f.unterminatedTail;
    return this.#summary;
  }

  #payload(text: string): void {
    const index = this.#payloads;
    this.#payloads += 1;
    this.#handlers.onPayload(parsePayload(text), index);
  }

  #feedLines(text: string): void {
    if (text === '') return;
    const lines = (this.#partial + text).split(/\r\n|\n|\r/);
    // The last piece is unfinished until a line end or the end of input (a CR may be half a CRLF: a
    // CRLF cut in two gives a line end and an empty line, which is skipped as blank).
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  #line(line: string): void {
    if (line.trim() === '') return;
    if (line.trim() === '[DONE]') {
      this.#done = true;
      return;
    }
    this.#payload(line);
  }
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

/** Splits an SSE body into events with the one SSE reader (core/sseFold.ts). */
export function splitSse(text: string): SplitStream {
  return split(text, 'sse');
}

/** One chunk JSON per non-empty line (a fixture format whose `data: ` prefixes and `[DONE]` were stripped). */
export function splitLines(text: string): SplitStream {
  return split(text, 'lines');
}
