import { randomBytes } from 'node:crypto';
import { isRecord } from '#harness/core/isRecord.ts';

/**
 * The marker that pairs a request sent through a gateway with the upstream requests it caused
 * (issue 33): written by the harness, read by its tap (gateway/tap.ts), taken out by the emulator
 * as a gateway's upstream before it answers.
 * Gateways drop fields and headers they do not know, and rewrite ids, but pass on the text of a
 * message: so the marker is a prefix of the first message's text (of `prompt` for fill-in-the-
 * middle), never a field or a header, and never the time a request arrived.
 */
const PREFIX = '[svc-mark-';
const MARK = /^\[svc-mark-([0-9a-f]{12})\] /;

/** A fresh marker: 12 hex digits, unique within a run. */
export function newMarker(): string {
  return randomBytes(6).toString('hex');
}

/** Where a body's first text is: the first message's content (a string or text parts), or a FIM prompt. */
type TextAt = { get(): string | undefined; set(text: string): void };

function firstText(body: unknown): TextAt | undefined {
  if (!isRecord(body)) return undefined;
  if (Array.isArray(body.messages) && isRecord(body.messages[0])) {
    const message = body.messages[0];
    if (typeof message.content === 'string') return { get: () => message.content as string, set: (t) => void (message.content = t) };
    if (Array.isArray(message.content)) {
      const part = message.content.find((p): p is Record<string, unknown> => isRecord(p) && typeof p.text === 'string');
      if (part) return { get: () => part.text as string, set: (t) => void (part.text = t) };
    }
    return undefined;
  }
  if (typeof body.prompt === 'string') return { get: () => body.prompt as string, set: (t) => void (body.prompt = t) };
  return undefined;
}

/** A copy of `body` with the marker before its first text; undefined when the body has no text to carry it. */
export function marked<T>(body: T, marker: string): T | undefined {
  const copy = structuredClone(body);
  const at = firstText(copy);
  if (!at) return undefined;
  at.set(`${PREFIX}${marker}] ${at.get() ?? ''}`);
  return copy;
}

/** The marker a body carries (as the upstream received it), or undefined. */
export function markerOf(body: unknown): string | undefined {
  return firstText(body)?.get()?.match(MARK)?.[1];
}

/** A copy of `body` without its marker: what the client asked for, to compare with what the upstream got. */
export function unmarked<T>(body: T): T {
  // Most bodies carry none (every request outside a gateway run): no copy for them.
  if (markerOf(body) === undefined) return body;
  const copy = structuredClone(body);
  const at = firstText(copy);
  const text = at?.get();
  if (at && text !== undefined) at.set(text.replace(MARK, ''));
  return copy;
}
