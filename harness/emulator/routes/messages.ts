import { randomUUID } from 'node:crypto';
import { chatToolChoiceOf } from '#harness/core/messagesToolChoice.ts';
import type { EmulatorContext } from '../context.ts';
import type { GeneratedToolCall, ToolChoice, ToolDef } from '../generate/chat.ts';
import { countTokens, tokenize } from '../generate/tokenize.ts';
import { jsonResponse, sseResponse } from '../http/respond.ts';
import { refusalResponse } from '../http/refusal.ts';
import { planChat, type ChatMessage, type ChatPlan } from './plan.ts';
import { isRecord, readJson, type RouteInput } from './request.ts';

/**
 * The messages-style format under {messages_base_url}: `model`, `max_tokens`, `messages` in; a
 * `content` array whose first item has `text` out. The rest of the format is not shown; the emulator
 * follows the format's public convention, which the widely used messages clients read: the reply's
 * type, role, stop_reason and usage; tools (`name`, `description`, `input_schema`) with `tool_choice`
 * `{type: auto | any | tool | none, name?}` answered with `tool_use` blocks; `tool_result` blocks
 * sent back; a stream of named events. Errors of this format are shaped in http/messagesError.ts.
 *
 * The request is read into chat terms and answered by the chat planner, so tool choice, stop
 * sequences, max_tokens and the conversation conventions are the chat format's, not a copy.
 */
export async function messages(input: RouteInput, release: () => void): Promise<Response> {
  const parsed = await readJson(input);
  if (!parsed.ok) return done(release, refusalResponse(parsed.refusal));
  const body = parsed.value;
  const { ctx } = input;
  const b = isRecord(body) ? body : {};
  const msgs = Array.isArray(b.messages) ? b.messages.filter(isRecord).flatMap(toChatMessages) : undefined;
  const ignoreTools = ctx.fault('messages-tools-ignored');
  const chatBody = isRecord(body) ? { ...body, ...(Array.isArray(body.stop_sequences) ? { stop: body.stop_sequences } : {}) } : body;
  const plan = planChat(ctx, input.key, input.base, 'messages', chatBody, {
    ...(msgs ? { messages: [...systemMessages(b.system), ...msgs] } : {}),
    tools: ignoreTools ? [] : readTools(b.tools),
    toolChoice: ignoreTools ? undefined : readToolChoice(b.tool_choice),
  });
  if ('status' in plan) return done(release, refusalResponse(plan));
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  if (b.stream === true) return streamMessage(input, plan, id, release);
  // The `messages-text-content-type` fault serves the same JSON as text/plain (a client reads it as text).
  return done(release, jsonResponse(messageBody(ctx, plan, id), 200, ctx.fault('messages-text-content-type') ? { 'content-type': 'text/plain; charset=utf-8' } : {}));
}

function done(release: () => void, response: Response): Response {
  release();
  return response;
}

// ---------------------------------------------------------------------------------------------
// The request, read into chat terms
// ---------------------------------------------------------------------------------------------

/** `system`: a string, or text blocks. */
function systemMessages(system: unknown): ChatMessage[] {
  const text = typeof system === 'string' ? system : Array.isArray(system) ? textOfBlocks(system) : '';
  return text === '' ? [] : [{ role: 'system', content: text }];
}

function textOfBlocks(blocks: readonly unknown[]): string {
  return blocks.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('');
}

/**
 * One message of this format as chat messages: a user turn's `tool_result` blocks become `tool`
 * messages (then its text, if any, a user message); an assistant turn's `tool_use` blocks become its
 * `tool_calls`.
 */
function toChatMessages(m: Record<string, unknown>): ChatMessage[] {
  const role = typeof m.role === 'string' ? m.role : 'user';
  if (!Array.isArray(m.content)) return [{ role, content: typeof m.content === 'string' ? m.content : '' }];
  const blocks = m.content.filter(isRecord);
  const text = textOfBlocks(blocks.filter((p) => p.type === 'text' || p.type === undefined));
  if (role === 'assistant') {
    const uses = blocks.filter((p) => p.type === 'tool_use');
    const toolCalls = uses.map((u) => ({ id: String(u.id ?? ''), type: 'function', function: { name: String(u.name ?? ''), arguments: JSON.stringify(u.input ?? {}) } }));
    return [{ role, content: text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) } as ChatMessage];
  }
  const results: ChatMessage[] = blocks
    .filter((p) => p.type === 'tool_result')
    .map((r) => ({ role: 'tool', tool_call_id: String(r.tool_use_id ?? ''), content: typeof r.content === 'string' ? r.content : Array.isArray(r.content) ? textOfBlocks(r.content) : '' }) as ChatMessage);
  if (results.length === 0) return [{ role, content: text }];
  return text === '' ? results : [...results, { role, content: text }];
}

/** `tools: [{name, description, input_schema}]` as chat tool definitions. */
function readTools(value: unknown): ToolDef[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((t) => {
    if (!isRecord(t) || typeof t.name !== 'string') return [];
    return [{ name: t.name, ...(typeof t.description === 'string' ? { description: t.description } : {}), parameters: t.input_schema }];
  });
}

/** `tool_choice: {type: auto | any | tool | none, name?}` as the chat choice it means (core/messagesToolChoice.ts). */
function readToolChoice(value: unknown): ToolChoice {
  const choice = chatToolChoiceOf(value);
  if (typeof choice !== 'object') return choice;
  return typeof choice.function.name === 'string' ? { name: choice.function.name } : undefined;
}

// ---------------------------------------------------------------------------------------------
// The reply
// ---------------------------------------------------------------------------------------------

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function stopReason(ctx: EmulatorContext, plan: ChatPlan): string {
  const g = plan.generated;
  if (g.finishReason === 'tool_calls') return 'tool_use';
  if (g.finishReason === 'length') return 'max_tokens';
  if (g.stopSequence !== undefined) return 'stop_sequence';
  // The fault answers with the chat-completions word.
  return ctx.fault('messages-stop-reason-chat-style') ? 'stop' : 'end_turn';
}

/**
 * The content blocks: the text, then one `tool_use` block per call. A reply with calls and no text
 * opens with a short text block saying what it calls, so the first item still has `text` (the
 * description's "a content array whose first item has text"), as the format's models often do.
 */
function contentBlocks(plan: ChatPlan): Block[] {
  const g = plan.generated;
  const text = g.toolCalls.length > 0 && g.content === '' ? leadIn(g.toolCalls) : g.content;
  return [{ type: 'text', text }, ...g.toolCalls.map((c): Block => ({ type: 'tool_use', id: toolUseId(c), name: c.name, input: inputOf(c) }))];
}

function leadIn(calls: readonly GeneratedToolCall[]): string {
  return `I will call ${calls.map((c) => c.name).join(' and ')}.`;
}

/** The format's id shape, `toolu_…`, from the call's own id. */
function toolUseId(call: GeneratedToolCall): string {
  return `toolu_${call.id.replace(/^call_/, '')}`;
}

/** The call's arguments as the object `input` is (an object even when a fault broke the JSON). */
function inputOf(call: GeneratedToolCall): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(call.arguments);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

function outputTokens(plan: ChatPlan): number {
  const g = plan.generated;
  return plan.usage.completion_tokens + (g.toolCalls.length > 0 && g.content === '' ? countTokens(leadIn(g.toolCalls)) : 0);
}

function messageBody(ctx: EmulatorContext, plan: ChatPlan, id: string): Record<string, unknown> {
  const content = contentBlocks(plan);
  const body: Record<string, unknown> = {
    id,
    type: 'message',
    role: 'assistant',
    model: plan.modelId,
    content,
    stop_reason: stopReason(ctx, plan),
    stop_sequence: plan.generated.stopSequence ?? null,
    usage: { input_tokens: plan.usage.prompt_tokens, output_tokens: outputTokens(plan) },
  };
  if (ctx.fault('messages-missing-content')) {
    delete body.content;
    body.completion = plan.generated.content;
  }
  return body;
}

interface NamedEvent {
  name: string;
  data: Record<string, unknown>;
}

function event(name: string, data: Record<string, unknown> = {}): NamedEvent {
  return { name, data: { type: name, ...data } };
}

/**
 * The format's stream: message_start, ping, then per content block content_block_start, its deltas
 * (text_delta, or input_json_delta with `partial_json` pieces for tool_use) and content_block_stop,
 * then message_delta (stop_reason, usage.output_tokens) and message_stop.
 */
function streamEvents(ctx: EmulatorContext, plan: ChatPlan, id: string): NamedEvent[] {
  const events: NamedEvent[] = [
    event('message_start', { message: { id, type: 'message', role: 'assistant', model: plan.modelId, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: plan.usage.prompt_tokens, output_tokens: 0 } } }),
    event('ping'),
  ];
  contentBlocks(plan).forEach((block, index) => {
    if (block.type === 'text') {
      events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const piece of tokenize(block.text)) events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    } else {
      events.push(event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      for (const piece of tokenize(JSON.stringify(block.input))) events.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
    }
    events.push(event('content_block_stop', { index }));
  });
  events.push(event('message_delta', { delta: { stop_reason: stopReason(ctx, plan), stop_sequence: plan.generated.stopSequence ?? null }, usage: { output_tokens: outputTokens(plan) } }));
  events.push(event('message_stop'));
  if (ctx.fault('messages-stream-out-of-order')) {
    // message_stop moved before the first content_block_stop (and so before message_delta).
    const stop = events.pop()!;
    events.splice(events.findIndex((e) => e.name === 'content_block_stop'), 0, stop);
  }
  return events;
}

function streamMessage(input: RouteInput, plan: ChatPlan, id: string, release: () => void): Response {
  const text = streamEvents(input.ctx, plan, id).map((e) => `event: ${e.name}\ndata: ${JSON.stringify(e.data)}\n\n`);
  return sseResponse(text, { intervalMs: input.ctx.streamPause, onClose: release });
}
