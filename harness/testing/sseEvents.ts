import { foldSse, type SseEvent } from '#harness/core/sseFold.ts';
import type { CheckResponse } from '#harness/checks/context.ts';

/** An event's data, `:`-prefixed for a comment line, optionally flagged as having arrived as bad UTF-8. */
export type EventData = string | { data: string; invalidUtf8?: true };

/**
 * The events the transport would hand a check for these payloads, classified by the one SSE reader:
 * each payload is framed as its own event (a `:` payload as a comment line) and folded.
 */
export function sseEventsOf(items: readonly EventData[]): SseEvent[] {
  const data = items.map((item) => (typeof item === 'string' ? item : item.data));
  const { events } = foldSse(data.map((d) => (d.startsWith(':') ? `${d}\n\n` : `${d.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`)).join(''));
  items.forEach((item, i) => {
    if (typeof item !== 'string' && item.invalidUtf8 === true) events[i]!.invalidUtf8 = true;
  });
  return events;
}

/** A 200 streamed answer of these events, as a check reads it; `breaks` is thrown after them when given (a reset, a timeout). */
export function streamedResponse(items: readonly EventData[], breaks?: Error): CheckResponse {
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    exchange: { request: { method: 'POST', url: 'http://x/chat/completions', headers: {} }, attempts: 1 },
    text: () => Promise.reject(new Error('read as events')),
    json: () => Promise.reject(new Error('read as events')),
    async *events() {
      yield* sseEventsOf(items);
      if (breaks) throw breaks;
    },
  };
}
