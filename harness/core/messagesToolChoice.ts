import { isRecord } from './isRecord.ts';

/** A chat-completions `tool_choice`. */
export type ChatToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; function: { name: unknown } };

/**
 * A messages-format `tool_choice` (`{type: auto | any | none | tool, name}`) as the chat value it
 * means, or undefined for anything else: one reading for every side, the emulator's messages route
 * (what it serves) and the gateway checks (what a translating gateway should send on).
 */
export function chatToolChoiceOf(value: unknown): ChatToolChoice | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: value.name } };
    default:
      return undefined;
  }
}
