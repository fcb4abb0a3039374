import { createHash } from 'node:crypto';
import { isRecord } from '#harness/core/isRecord.ts';

/**
 * The marker that pairs a request sent through a gateway with the upstream requests it caused
 * (issue 33): written by the harness, read by its upstream (gateway/upstream.ts), taken out by the
 * emulator before it answers.
 * Gateways drop fields and headers they do not know, rewrite ids and may put a system message of
 * their own first, but pass on the text of the messages: so the marker ends the last message's text
 * (it leaves every prompt prefix as it was, for the cache) or starts a fill-in-the-middle `prompt`
 * (its end is where the middle goes), and is looked for in every message. Never a field, a header,
 * or the time a request arrived.
 */
const MARK = /\s?\[svc-mark-([0-9a-f]{12})\]\s?/;
const tag = (marker: string) => `[svc-mark-${marker}]`;

/**
 * The marker of the `occurrence`-th request (from 0) with this body: the same request sent again in
 * another run (a replay of a recording) carries the same marker, so the recording answers it.
 */
export function markerFor(canonicalBody: string, occurrence: number): string {
  return createHash('sha256').update(`${occurrence}\n${canonicalBody}`).digest('hex').slice(0, 12);
}

/** A place that holds text: a message's content (a string, or a text part), or a FIM prompt. */
type TextAt = { get(): string; set(text: string): void };

function textsOf(body: unknown): TextAt[] {
  if (!isRecord(body)) return [];
  if (Array.isArray(body.messages)) {
    return body.messages.flatMap((message): TextAt[] => {
      if (!isRecord(message)) return [];
      if (typeof message.content === 'string') return [{ get: () => message.content as string, set: (t) => void (message.content = t) }];
      if (!Array.isArray(message.content)) return [];
      return message.content.filter((p): p is Record<string, unknown> => isRecord(p) && typeof p.text === 'string').map((part) => ({ get: () => part.text as string, set: (t: string) => void (part.text = t) }));
    });
  }
  if (typeof body.prompt === 'string') return [{ get: () => body.prompt as string, set: (t) => void (body.prompt = t) }];
  return [];
}

/** A copy of `body` carrying the marker; undefined when the body has no text to carry it. */
export function marked<T>(body: T, marker: string): T | undefined {
  const copy = structuredClone(body);
  const texts = textsOf(copy);
  const at = texts.at(-1);
  if (!at) return undefined;
  if (isRecord(copy) && typeof copy.prompt === 'string' && !Array.isArray(copy.messages)) at.set(`${tag(marker)} ${at.get()}`);
  else at.set(`${at.get()} ${tag(marker)}`);
  return copy;
}

/** The marker a body carries (as the upstream received it, wherever the gateway put our text), or undefined. */
export function markerOf(body: unknown): string | undefined {
  for (const at of textsOf(body)) {
    const found = at.get().match(MARK)?.[1];
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Text (a canonical body) without the markers in it: two sendings of one request in different runs
 * differ in their marker as much as in what the marker is for, and a replay compares the rest.
 */
export function withoutMarkers(text: string): string {
  return text.replace(new RegExp(MARK.source, 'g'), '');
}

/** A copy of `body` without its marker: what the client asked for, to compare with what the upstream got. */
export function unmarked<T>(body: T): T {
  // Most bodies carry none (every request outside a gateway run): no copy for them.
  if (markerOf(body) === undefined) return body;
  const copy = structuredClone(body);
  for (const at of textsOf(copy)) {
    const text = at.get();
    const m = text.match(MARK);
    if (m === null || m.index === undefined) continue;
    // Only the spaces the marker brought go with it.
    const before = text.slice(0, m.index);
    const after = text.slice(m.index + m[0].length);
    at.set(before === '' || after === '' ? `${before}${after}` : `${before} ${after}`);
  }
  return copy;
}
