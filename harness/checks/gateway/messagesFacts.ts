import { isRecord } from '#harness/core/isRecord.ts';
import { jsonOf } from '#harness/core/parsesAsJson.ts';
import { foldSse } from '#harness/core/sseFold.ts';

type Counts = Record<string, number>;

/** What a messages-format answer says of how it ended and what it counted, a body or a stream put together. */
export interface MessagesFacts {
  stop_reason?: unknown;
  stop_sequence?: unknown;
  /** A body's usage; in a stream, none. */
  usage?: Counts;
  /** A stream's `message_start` usage (`message.usage`). */
  start?: Counts;
  /** A stream's last `message_delta` usage. */
  delta?: Counts;
  streamed: boolean;
  /** False for a text that is neither a message nor a stream of its events. */
  read: boolean;
}

const counts = (u: unknown): Counts | undefined => (isRecord(u) ? Object.fromEntries(Object.entries(u).filter((e): e is [string, number] => typeof e[1] === 'number')) : undefined);

/** The facts of a messages-format answer's text (a JSON body or an SSE stream of named events). */
export function messagesFacts(answer: string): MessagesFacts {
  const body = jsonOf(answer);
  if (isRecord(body)) {
    if (body.type !== 'message') return { streamed: false, read: false };
    return { stop_reason: body.stop_reason, stop_sequence: body.stop_sequence, usage: counts(body.usage), streamed: false, read: true };
  }
  const facts: MessagesFacts = { streamed: true, read: false };
  for (const e of foldSse(answer).events) {
    if (e.kind !== 'data') continue;
    const data = jsonOf(e.data);
    if (!isRecord(data)) continue;
    if (data.type === 'message_start' && isRecord(data.message)) {
      facts.read = true;
      facts.start = counts(data.message.usage);
    }
    if (data.type === 'message_delta') {
      facts.read = true;
      if (isRecord(data.delta) && data.delta.stop_reason !== undefined && data.delta.stop_reason !== null) {
        facts.stop_reason = data.delta.stop_reason;
        facts.stop_sequence = data.delta.stop_sequence;
      }
      facts.delta = counts(data.usage) ?? facts.delta;
    }
  }
  return facts;
}
