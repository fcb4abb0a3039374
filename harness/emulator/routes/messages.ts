import { randomUUID } from 'node:crypto';
import { tokenize } from '../generate/tokenize.ts';
import { jsonResponse, sseResponse } from '../http/respond.ts';
import { refusalResponse } from '../http/refusal.ts';
import { planChat, type ChatMessage, type ChatPlan } from './plan.ts';
import { isRecord, readJson, type RouteInput } from './request.ts';

/**
 * The messages-style format under {messages_base_url}: `model`, `max_tokens`, `messages` in; a
 * `content` array whose first item has `text` out. The rest of the shape is not shown; the emulator
 * answers in the shape the widely used messages clients read (type, role, stop_reason, usage), so
 * those clients work against it.
 */
export async function messages(input: RouteInput, release: () => void): Promise<Response> {
  const parsed = await readJson(input);
  if (!parsed.ok) return done(release, refusalResponse(parsed.refusal));
  const body = parsed.value;
  const msgs = isRecord(body) && Array.isArray(body.messages) ? body.messages.filter(isRecord).map(toChatMessage) : undefined;
  const system = isRecord(body) && typeof body.system === 'string' ? [{ role: 'system', content: body.system }] : [];
  const chatBody = isRecord(body) ? { ...body, ...(Array.isArray(body.stop_sequences) ? { stop: body.stop_sequences } : {}) } : body;
  const plan = planChat(input.ctx, input.key, input.base, 'messages', chatBody, msgs ? [...system, ...msgs] : undefined);
  if ('status' in plan) return done(release, refusalResponse(plan));
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  if (isRecord(body) && body.stream === true) return streamMessage(input, plan, id, release);
  return done(release, jsonResponse(messageBody(input, plan, id)));
}

function done(release: () => void, response: Response): Response {
  release();
  return response;
}

function toChatMessage(m: Record<string, unknown>): ChatMessage {
  const role = typeof m.role === 'string' ? m.role : 'user';
  if (typeof m.content === 'string') return { role, content: m.content };
  const parts = Array.isArray(m.content) ? m.content.filter(isRecord) : [];
  return { role, content: parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('') };
}

function stopReason(plan: ChatPlan): string {
  if (plan.generated.finishReason === 'length') return 'max_tokens';
  return plan.generated.stopSequence !== undefined ? 'stop_sequence' : 'end_turn';
}

function messageBody(input: RouteInput, plan: ChatPlan, id: string): Record<string, unknown> {
  const text = { type: 'text', text: plan.generated.content };
  const body: Record<string, unknown> = {
    id,
    type: 'message',
    role: 'assistant',
    model: plan.modelId,
    content: [text],
    stop_reason: stopReason(plan),
    stop_sequence: plan.generated.stopSequence ?? null,
    usage: { input_tokens: plan.usage.prompt_tokens, output_tokens: plan.usage.completion_tokens },
  };
  if (input.ctx.fault('messages-missing-content')) {
    delete body.content;
    body.completion = plan.generated.content;
  }
  return body;
}

function event(name: string, data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}

function streamMessage(input: RouteInput, plan: ChatPlan, id: string, release: () => void): Response {
  const full = messageBody(input, plan, id);
  function* events(): Generator<string> {
    yield event('message_start', { message: { ...full, content: [], stop_reason: null, usage: { input_tokens: plan.usage.prompt_tokens, output_tokens: 0 } } });
    yield event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    for (const piece of tokenize(plan.generated.content)) yield event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } });
    yield event('content_block_stop', { index: 0 });
    yield event('message_delta', { delta: { stop_reason: stopReason(plan), stop_sequence: plan.generated.stopSequence ?? null }, usage: { output_tokens: plan.usage.completion_tokens } });
    yield event('message_stop', {});
  }
  return sseResponse(events(), { intervalMs: input.ctx.streamIntervalMs, onClose: release });
}
