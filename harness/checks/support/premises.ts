import type { CheckRequest } from '../context.ts';
import { get, isObject } from './body.ts';

/**
 * Output room for an answer whose content a check judges (a tool call, JSON, a reply to a prompt):
 * enough that a short answer is not cut off by `max_tokens` (the default request asks for 32, to
 * keep a live run cheap), few enough that a model writing on and on costs little.
 */
export const ROOM_TOKENS = 256;

/** The request with room for its answer: `max_tokens` raised to ROOM_TOKENS where it asks for less. */
export function withRoom(request: CheckRequest): CheckRequest {
  const body = request.body;
  if (!isObject(body) || (typeof body.max_tokens === 'number' && body.max_tokens >= ROOM_TOKENS)) return request;
  return { ...request, body: { ...body, max_tokens: ROOM_TOKENS } };
}

/**
 * Why an answer cannot be judged on what it says, or undefined when it can: one cut off by
 * `max_tokens` (`finish_reason: "length"`) holds a part of what the model meant (a tool call's
 * arguments half written, JSON unclosed), so a verdict on it would be a verdict on the cut.
 */
export function cutOff(body: unknown): string | undefined {
  return cutOffBy(get(body, 'choices', 0, 'finish_reason'), get(body, 'usage', 'completion_tokens'));
}

/** The same for a stream, by the finish reason its chunks ended with. */
export function cutOffBy(finishReason: unknown, completionTokens?: unknown): string | undefined {
  if (finishReason !== 'length') return undefined;
  const used = typeof completionTokens === 'number' ? ` after ${completionTokens} tokens` : '';
  return `the answer was cut off by max_tokens (finish_reason "length"${used}): what it says is incomplete, so it cannot be judged`;
}
