import { jsonOf } from './parsesAsJson.ts';

/**
 * The characters of text one stream chunk adds, from its `data`: a chat delta's content and
 * reasoning_content, or a fill-in-the-middle choice's text. The one count both sides of a lockstep
 * stream keep (gateway/upstream.ts sends the next event once the client has received this much;
 * checks/gateway/pair.ts reports what it received), so they never disagree on what arrived.
 */
export function chunkTextLength(data: string): number {
  const chunk = jsonOf(data) as { choices?: { delta?: { content?: unknown; reasoning_content?: unknown }; text?: unknown }[] } | undefined;
  const choice = Array.isArray(chunk?.choices) ? chunk.choices[0] : undefined;
  return [choice?.delta?.content, choice?.delta?.reasoning_content, choice?.text].reduce<number>((n, t) => n + (typeof t === 'string' ? t.length : 0), 0);
}
