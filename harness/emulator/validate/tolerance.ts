import { isRecord } from './json.ts';

/**
 * Where field validation is more lenient than the spec's types, on purpose.
 *
 * The message object types `content` as a required string. Real clients that send a conversation
 * with a tool round trip write the assistant turn that carried `tool_calls` with `content: null`
 * (the widely used chat-completions SDKs echo the answer message back that way), or leave `content`
 * out of it. The description says nothing about such turns; refusing them would refuse the tool
 * round trip the description does describe ("Think with tools", tool_choice), so the emulator is
 * conservative: a null or missing `content` is accepted on an assistant message that has
 * `tool_calls`. Every other non-string content (arrays of content parts included) is still refused
 * as a wrong type.
 */
export function toleratesMissingOrNull(objectName: string | undefined, field: string, container: Record<string, unknown>): boolean {
  return objectName === 'message' && field === 'content' && container.role === 'assistant' && Array.isArray(container.tool_calls);
}

/** The value at `field` of `container` is tolerated as it is. */
export function tolerated(objectName: string | undefined, field: string, container: unknown): boolean {
  if (!isRecord(container)) return false;
  const value = container[field];
  return (value === undefined || value === null) && toleratesMissingOrNull(objectName, field, container);
}
