import type { SseEvent } from '#harness/core/sseFold.ts';
import type { Spec } from '#harness/spec/model.ts';
import { defineCheck, gradeOf, messagesModels, type Check } from '../define.ts';
import { behaviourOf } from '../support/behaviour.ts';
import { get, isObject } from '../support/body.ts';
import { failure, outcomeOf, shown } from '../support/outcome.ts';
import { messagesStreamed } from '../support/samples.ts';
import { eventStreamType, isEventStream } from '../support/stream.ts';
import { STOP_REASONS } from './format.ts';
import { statusHandOff } from '../support/handoff.ts';

/** Events of a messages-format stream, as read: the name and data of each, and what did not parse. */
interface NamedEvent {
  name: string | undefined;
  data: unknown;
}

/** The order a messages-format stream keeps, by that format's convention: one finding per departure. */
export function orderDepartures(events: readonly NamedEvent[]): string[] {
  const out: string[] = [];
  const seq = events.filter((e) => e.name !== 'ping');
  const names = seq.map((e) => e.name ?? '(unnamed)');
  if (names[0] !== 'message_start') out.push(`the first event is ${shown(names[0])}, not message_start`);
  if (names.at(-1) !== 'message_stop') out.push(`the last event is ${shown(names.at(-1))}, not message_stop`);
  if (names.at(-2) !== 'message_delta') out.push(`the event before the last is ${shown(names.at(-2))}, not message_delta`);
  const open = new Set<unknown>();
  const closed = new Set<unknown>();
  let text = '';
  seq.forEach((e, i) => {
    const index = get(e.data, 'index');
    if (e.data !== undefined && get(e.data, 'type') !== e.name) out.push(`event ${i} (${e.name ?? 'unnamed'}) carries data of \`type\` ${shown(get(e.data, 'type'))}`);
    if (e.name === 'content_block_start') open.add(index);
    if (e.name === 'content_block_delta') {
      if (!open.has(index) || closed.has(index)) out.push(`event ${i}: a content_block_delta for block ${shown(index)} outside its content_block_start and content_block_stop`);
      const piece = get(e.data, 'delta', 'text');
      if (typeof piece === 'string') text += piece;
    }
    if (e.name === 'content_block_stop') {
      if (!open.has(index)) out.push(`event ${i}: content_block_stop for block ${shown(index)}, which never started`);
      closed.add(index);
    }
    if ((e.name === 'message_delta' || e.name === 'message_stop') && [...open].some((b) => !closed.has(b))) out.push(`event ${i}: ${e.name} while a content block is still open`);
  });
  const delta = seq.find((e) => e.name === 'message_delta');
  if (delta && !STOP_REASONS.includes(get(delta.data, 'delta', 'stop_reason') as string)) out.push(`message_delta's \`delta.stop_reason\` is ${shown(get(delta.data, 'delta', 'stop_reason'))}, not one of ${STOP_REASONS.join(', ')}`);
  if (open.size === 0) out.push('no content block was streamed');
  else if (text === '' && seq.every((e) => get(e.data, 'content_block', 'type') !== 'tool_use')) out.push('the text deltas add up to no text');
  return out;
}

/** An event of a messages-format stream as read: its name, and its data when that is a JSON object. */
export function named(e: SseEvent): NamedEvent {
  try {
    const data: unknown = JSON.parse(e.data);
    return { name: e.event, data: isObject(data) ? data : undefined };
  } catch {
    return { name: e.event, data: undefined };
  }
}

/** The messages format's stream: named events in that format's order, each with its data typed by its name. */
export function messagesStreamChecks(spec: Spec): Check[] {
  const order = behaviourOf(spec.messages_format, 'stream-event-order', 'messages_format');
  return [
    defineCheck({
      id: 'messages.stream.events-in-format-order',
      title: 'a messages-format stream sends message_start, content blocks, message_delta and message_stop in order',
      ...gradeOf(order),
      specRefs: ['messages_format.stream-event-order'],
      appliesTo: messagesModels,
      async run(ctx) {
        // The stream the anthropic client is handed too (client/anthropic.ts): one answer for both.
        const { res, events = [] } = await messagesStreamed(ctx);
        // A refusal of a valid request is the defect the reply's schema check reports where the reply is refused alike.
        if (res.status !== 200) return statusHandOff('messages_response', res, `the streamed messages-format request was answered HTTP ${res.status}`);
        if (!isEventStream(ctx.spec, res)) return outcomeOf([failure(`a streamed messages-format request was answered as ${shown(res.headers['content-type'] ?? '')}, not an SSE stream (${eventStreamType(ctx.spec)})`, res)]);
        return outcomeOf(orderDepartures(events.map(named)).map((d) => failure(`the stream departs from the messages format's event order: ${d}`, res)));
      },
    }),
  ];
}
