import { createParser } from 'eventsource-parser';

/** A captured stream read back into its chunk payloads and framing facts. */
export interface SplitStream {
  /** How the capture was framed: SSE (`data:` lines) or one chunk JSON per line (no framing). */
  framing: 'sse' | 'lines';
  /** Each payload in order, `[DONE]` excluded: parsed JSON, or the raw text when it did not parse. */
  payloads: ({ ok: true; value: unknown } | { ok: false; text: string; error: string })[];
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

/** Whether a text is framed as SSE: some line is a `data:` field (comments alone do not make a stream). */
export function looksLikeSse(text: string): boolean {
  return /^data:/m.test(text);
}

function parsePayload(text: string): SplitStream['payloads'][number] {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, text, error: (err as Error).message };
  }
}

/** Splits an SSE body into events with eventsource-parser (the framing a conforming client reads). */
export function splitSse(text: string): SplitStream {
  const out: SplitStream = { framing: 'sse', payloads: [], comments: [], done: false, eventsAfterDone: 0, namedEvents: [] };
  const parser = createParser({
    onEvent(event) {
      if (out.done === true) out.eventsAfterDone += 1;
      if (event.event !== undefined) out.namedEvents.push(event.event);
      if (event.data === '[DONE]') {
        out.done = true;
        return;
      }
      out.payloads.push(parsePayload(event.data));
    },
    onComment(comment) {
      out.comments.push(comment.trim());
    },
  });
  parser.feed(text);
  // An event the body never closed is discarded at end of input, as a client would; it is noted instead.
  parser.reset({ consume: true });
  const tail = unclosedTail(text);
  if (tail !== undefined) out.unterminatedTail = tail;
  return out;
}

/** One chunk JSON per non-empty line (a fixture format whose `data: ` prefixes and `[DONE]` were stripped). */
export function splitLines(text: string): SplitStream {
  const out: SplitStream = { framing: 'lines', payloads: [], comments: [], done: undefined, eventsAfterDone: 0, namedEvents: [] };
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line.trim() === '') continue;
    if (line.trim() === '[DONE]') {
      out.done = true;
      continue;
    }
    out.payloads.push(parsePayload(line));
  }
  return out;
}

/** The text after the last blank line (an event boundary), when the body does not end on one. */
function unclosedTail(text: string): string | undefined {
  const boundary = /(?:\r\n|\n|\r(?!\n))(?:\r\n|\n|\r(?!\n))/g;
  let end = 0;
  for (let m = boundary.exec(text); m !== null; m = boundary.exec(text)) end = m.index + m[0].length;
  const tail = text.slice(end);
  return tail.trim() === '' ? undefined : tail;
}
