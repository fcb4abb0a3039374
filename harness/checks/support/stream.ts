import type { CheckResponse } from '../context.ts';
import { isObject, type Json } from './body.ts';

/** A stream as it arrived, judged event by event. */
export interface ReadStream {
  chunks: Json[];
  /** `data:` payloads that were not JSON (and not [DONE]). */
  malformed: string[];
  done: boolean;
  /** Events that came after [DONE]. */
  afterDone: string[];
  comments: number;
  /** Set when the stream broke off (reset, timeout). */
  error?: string;
}

/** Reads an SSE response incrementally: chunks are parsed as they arrive, never buffered whole. */
export async function readStream(res: CheckResponse, onChunk?: (chunk: Json, index: number) => void): Promise<ReadStream> {
  const out: ReadStream = { chunks: [], malformed: [], done: false, afterDone: [], comments: 0 };
  try {
    for await (const event of res.events()) {
      if (event.data.startsWith(':')) {
        out.comments++;
        continue;
      }
      if (out.done) {
        out.afterDone.push(event.data);
        continue;
      }
      if (event.data === '[DONE]') {
        out.done = true;
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch {
        out.malformed.push(event.data);
        continue;
      }
      if (isObject(parsed)) {
        onChunk?.(parsed, out.chunks.length);
        out.chunks.push(parsed);
      } else out.malformed.push(event.data);
    }
  } catch (err) {
    out.error = (err as Error).message;
  }
  return out;
}

/** The message a stream adds up to: content, reasoning text, tool calls by index, finish reason. */
export function assemble(chunks: readonly Json[]): { content: string; reasoning: string; toolCalls: { id?: string; name: string; arguments: string }[]; finishReason: unknown; usage: unknown } {
  let content = '';
  let reasoning = '';
  const calls: { id?: string; name: string; arguments: string }[] = [];
  let finishReason: unknown = null;
  let usage: unknown;
  for (const chunk of chunks) {
    if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      if (!isObject(choice)) continue;
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) finishReason = choice.finish_reason;
      const delta = isObject(choice.delta) ? choice.delta : {};
      if (typeof delta.content === 'string') content += delta.content;
      for (const [k, v] of Object.entries(delta)) {
        // The reasoning field's name inside delta is not stated: any other text field counts.
        if (!['role', 'content', 'tool_calls'].includes(k) && typeof v === 'string') reasoning += v;
      }
      for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        if (!isObject(tc)) continue;
        const index = typeof tc.index === 'number' ? tc.index : calls.length;
        const call = (calls[index] ??= { name: '', arguments: '' });
        if (typeof tc.id === 'string') call.id = tc.id;
        const fn = isObject(tc.function) ? tc.function : {};
        if (typeof fn.name === 'string') call.name += fn.name;
        if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
      }
    }
  }
  return { content, reasoning, toolCalls: calls.filter(Boolean), finishReason, usage };
}
