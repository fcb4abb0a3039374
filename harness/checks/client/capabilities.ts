import type { Model } from '#harness/spec/model.ts';
import type { CheckContext } from '../context.ts';
import { currentModels, defaultModelOnly, messagesModels, supportsTools } from '../define.ts';
import { completionToHand, messagesRefusalToHand, messagesReplyToHand, messagesStreamToHand, refusalToHand, streamToHand } from './handed.ts';

/** The format's errors are the service's, not a model's: judged once, on the default model. */
const messagesDefaultModel = (m: Model) => messagesModels(m) && m.default;

/**
 * Each capability a client is checked for, declared once for every client that has it: its name in
 * check ids, the answer it is handed (handed.ts), the spec entries that answer reads, the models it
 * applies to, and how a client that throws on it is said to break. A client module is an adapter
 * over these: how to make and call the client, and how to read what it returns.
 */
export const CAPABILITIES = {
  chat: { capability: 'chat', reads: ['objects.chat_completion'], appliesTo: currentModels, hands: completionToHand, throws: 'it throws on a completion the endpoint answered 200' },
  stream: { capability: 'stream', reads: ['objects.chat_completion_chunk', 'objects.chunk_choice', 'streaming.events'], appliesTo: currentModels, hands: streamToHand, throws: 'it throws on a stream the harness read to its end' },
  // The stream answer.stream-tool-call.names-an-offered-function judges: one answer for both.
  'stream-tool-calls': { capability: 'stream-tool-calls', reads: ['objects.chat_completion_chunk', 'objects.tool_call'], appliesTo: supportsTools, hands: (ctx: CheckContext) => streamToHand(ctx, 'tool-call'), throws: 'it throws on a stream the harness read to its end' },
  error: { capability: 'error', reads: ['objects.error_envelope'], appliesTo: defaultModelOnly, hands: refusalToHand },
  messages: { capability: 'messages', reads: ['messages_format'], appliesTo: messagesModels, hands: messagesReplyToHand, throws: 'it throws on a reply the endpoint answered 200' },
  'messages-stream': { capability: 'stream', reads: ['messages_format'], appliesTo: messagesModels, hands: messagesStreamToHand, throws: 'it throws on a stream the harness read to its end' },
  // The refusal the messages error checks judge: one answer for all.
  'messages-error': { capability: 'error', reads: ['messages_format'], appliesTo: messagesDefaultModel, hands: messagesRefusalToHand },
} as const satisfies Record<string, { capability: string; reads: readonly string[]; appliesTo: (m: Model, id: string) => boolean; hands: unknown; throws?: string }>;
