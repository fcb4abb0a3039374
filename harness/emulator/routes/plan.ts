import { randomUUID } from 'node:crypto';
import { CHOICES, refusal } from '../choices.ts';
import type { EmulatorContext } from '../context.ts';
import { generateChat, type Generated, type ToolChoice, type ToolDef } from '../generate/chat.ts';
import { tokenize } from '../generate/tokenize.ts';
import type { Refusal } from '../http/refusal.ts';
import { effectiveMaxTokens, resolveModel, type Served } from '../models.ts';
import { costOf } from '#harness/spec/pricing.ts';
import { validateRequest } from '../validate/index.ts';
import { isRecord } from './request.ts';

/** How many earlier answers of a key the `stateful-history` fault echoes. */
const REMEMBERED_ANSWERS = 50;

/** A chat request the emulator will answer, with everything the answer needs worked out. */
export interface ChatPlan {
  id: string;
  created: number;
  served: Served;
  /** Model id the answer names: the one that actually answered. */
  modelId: string;
  /** Key of the base the request came to (the `v1-strips-fields` fault answers /v1 differently). */
  base: string;
  thinking: boolean;
  generated: Generated;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_cache_hit_tokens: number; prompt_cache_miss_tokens: number };
  reasoningTokens: number;
  logprobs: boolean;
  topLogprobs: number;
}

export interface ChatMessage {
  role: string;
  content: unknown;
}

/**
 * What a format other than chat completions hands over already read into chat terms: its messages,
 * its tools and its tool choice. Validation still judges the body as sent.
 */
export interface ReadAs {
  messages?: readonly ChatMessage[];
  tools?: readonly ToolDef[];
  toolChoice?: ToolChoice;
}

/** Reads, validates and answers a chat request body (any format), without writing the answer. */
export function planChat(ctx: EmulatorContext, key: string, base: string, endpoint: string, body: unknown, readAs: ReadAs = {}): ChatPlan | Refusal {
  const { spec } = ctx;
  const modelId = isRecord(body) && typeof body.model === 'string' && body.model in spec.models ? body.model : undefined;
  const early = endpoint === 'chat_completions' && isRecord(body) ? beforeValidationFault(ctx, body) : undefined;
  if (early) return early;
  const invalid = validateRequest(ctx.validationSpec, body, { base, endpoint, ...(modelId ? { modelId } : {}) });
  if (invalid) return invalid;
  const b = body as Record<string, unknown>;
  const served = resolveModel(ctx, b.model);
  if ('status' in served) return served;

  const tools = readAs.tools ?? readTools(b.tools);
  const refused = acceptSideFault(ctx, b, base, endpoint, tools.length > 0);
  if (refused) return refused;
  // Legacy reasoner: "a request with tools sent to svc-reasoner is processed by svc-chat".
  const handedToChat = served.requested === 'svc-reasoner' && tools.length > 0 && !!spec.models['svc-chat']?.routes_to;
  const mode = handedToChat ? spec.models['svc-chat']!.routes_to!.mode : served.aliasMode;
  const thinking = thinkingOn(ctx, b, mode);
  const effort = b.reasoning_effort === 'high' || b.reasoning_effort === 'low' ? b.reasoning_effort : mode === 'think_max' ? 'high' : undefined;
  const missing = thinking && !served.legacy && endpoint === 'chat_completions' && ctx.fault('thinking-tool-turn-needs-reasoning') ? toolTurnWithoutReasoning(b) : undefined;
  if (missing !== undefined) return missingReasoningRefusal(ctx, missing);
  const plain = thinking && !served.legacy && endpoint === 'chat_completions' && ctx.fault('thinking-plain-turn-needs-reasoning') ? plainTurnWithoutReasoning(b) : undefined;
  if (plain !== undefined) return refusal(ctx.spec, 400, `reasoning_content missing in the assistant message at message index ${plain}: thinking is enabled`, 'invalid_request_error');

  const sent = readAs.messages ?? ((b.messages as ChatMessage[]) ?? []);
  // A gateway truncating history forwards the last message only (the system message goes too).
  const msgs = ctx.fault('history-dropped') ? sent.slice(-1) : sent;
  const promptTokens = msgs.reduce((n, m) => n + tokenize(m.role).length + tokenize(typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')).length + 1, 0);
  const servedId = handedToChat ? spec.models['svc-chat']!.routes_to!.model : served.served;
  const now = ctx.now();

  const missOnly = costOf(spec, served.requested, { promptCacheHitTokens: 0, promptCacheMissTokens: promptTokens, completionTokens: 0 }, now);
  if (!ctx.balances.canCover(key, missOnly) && !ctx.fault('balance-402-not-enforced')) {
    return refusal(spec, 402, 'insufficient balance for this request', 'insufficient_balance', null, 'insufficient_balance');
  }

  const split = ctx.cache.split(`${key}|${servedId}`, promptTokenStream(msgs));
  let hit = split.hit;
  if (ctx.fault('cache-never-hits')) hit = 0;
  if (ctx.fault('cache-hits-under-minimum') && promptTokens < minCacheTokens(ctx)) hit = promptTokens;
  hit = Math.min(hit, promptTokens);

  const last = msgs[msgs.length - 1] as (ChatMessage & { prefix?: unknown }) | undefined;
  const prefixBase = base === 'beta' || ctx.fault('prefix-outside-beta');
  const prefix = prefixBase && !ctx.fault('prefix-ignored') && last?.role === 'assistant' && last.prefix === true && typeof last.content === 'string' ? last.content : undefined;
  const toolChoice = faultyToolChoice(ctx, 'toolChoice' in readAs ? readAs.toolChoice : readToolChoice(b.tool_choice));
  const asked = ctx.fault('stop-sequence-ignored') ? [] : typeof b.stop === 'string' ? [b.stop] : Array.isArray(b.stop) ? b.stop.filter((s): s is string => typeof s === 'string') : [];
  const stop = ctx.fault('non-ascii-stop-ignored') ? asked.filter(isAscii) : asked;
  const maxTokens = ctx.fault('max-tokens-ignored') ? Number.POSITIVE_INFINITY : effectiveMaxTokens(served.model, b.max_tokens);

  const generated = generateChat({
    seed: ctx.seed,
    messages: msgs,
    thinking: thinking && !ctx.fault('thinking-no-reasoning'),
    effort,
    tools,
    toolChoice,
    jsonMode: isRecord(b.response_format) && b.response_format.type === 'json_object',
    stop,
    maxTokens,
    ...(prefix !== undefined ? { prefix } : {}),
    ...(ctx.fault('tool-call-cut-off') ? { padToolArguments: TOOL_ARGUMENTS_PADDING } : {}),
  });
  applyOutputFaults(ctx, generated, tools, thinking, key);

  const completion = generated.completionTokens;
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion + (ctx.fault('usage-total-wrong') ? 1 : 0),
    prompt_cache_hit_tokens: hit,
    prompt_cache_miss_tokens: promptTokens - hit + (ctx.fault('usage-cache-sum-wrong') ? 1 : 0),
  };
  ctx.balances.charge(key, costOf(spec, served.requested, { promptCacheHitTokens: hit, promptCacheMissTokens: promptTokens - hit, completionTokens: completion }, now));

  return {
    id: `chatcmpl-${randomUUID()}`,
    created: ctx.fault('created-in-milliseconds') ? now.getTime() : Math.floor(now.getTime() / 1000),
    served,
    modelId: ctx.fault('model-unknown-in-answer') ? UNKNOWN_MODEL : ctx.underLoad('load-model-renamed') ? RENAMED_UNDER_LOAD : servedId,
    base,
    thinking,
    generated,
    usage,
    reasoningTokens: generated.reasoningTokens,
    logprobs: b.logprobs === true,
    topLogprobs: typeof b.top_logprobs === 'number' ? b.top_logprobs : 0,
  };
}

/** What the `model-unknown-in-answer` fault names: no model of the service. */
export const UNKNOWN_MODEL = 'svc-imaginary-9';
/** What the `load-model-renamed` fault names under load: a model of another service. */
export const RENAMED_UNDER_LOAD = 'gpt-4o-mini';
/** What the `tool-call-unoffered-function` fault calls: a function no request offers. */
export const UNOFFERED_FUNCTION = 'run_shell_command';

/** What the `tool-call-cut-off` fault pads a tool call's arguments with: far more than a usual `max_tokens`. */
export const TOOL_ARGUMENTS_PADDING = 4000;

/**
 * Faults that answer a chat request before the contract is read, as a gateway or a crashing
 * handler would: `reasoning-effort-always-refused` refuses `reasoning_effort` whatever its value
 * (and `stop-always-refused` `stop`)
 * (LiteLLM's OpenAI-compatible provider, fixtures/litellm-openai: "does not support parameters");
 * `second-case-500` fails on the second case of chat.required-field.missing (`model` sent,
 * `messages` missing) while the first (no `model`) is still refused by validation.
 */
function beforeValidationFault(ctx: EmulatorContext, b: Record<string, unknown>): Refusal | undefined {
  if (ctx.fault('reasoning-effort-always-refused') && b.reasoning_effort !== undefined) {
    return refusal(ctx.spec, 400, "the provider does not support parameters: ['reasoning_effort']", 'unsupported_params', 'reasoning_effort');
  }
  if (ctx.fault('stop-always-refused') && b.stop !== undefined) {
    return refusal(ctx.spec, 400, "the provider does not support parameters: ['stop']", 'unsupported_params', 'stop');
  }
  if (ctx.fault('second-case-500') && b.model !== undefined && b.messages === undefined) {
    return refusal(ctx.spec, 500, 'internal error', 'internal_error', null, 'server_error');
  }
  // As a server that encodes the prompt as ASCII (or Latin-1) and throws on anything else.
  if (ctx.fault('non-ascii-500') && !isAscii(JSON.stringify(b))) {
    return refusal(ctx.spec, 500, "'ascii' codec can't encode character in position 0: ordinal not in range(128)", 'internal_error', null, 'server_error');
  }
  return undefined;
}

/** Faults that refuse a request the description says is served; each names what it refuses. */
function acceptSideFault(ctx: EmulatorContext, b: Record<string, unknown>, base: string, endpoint: string, hasTools: boolean): Refusal | undefined {
  const no = (message: string): Refusal => refusal(ctx.spec, 400, message, 'invalid_request_error');
  const thinking = isRecord(b.thinking) && b.thinking.type === 'enabled';
  if (ctx.fault('thinking-with-tools-refused') && thinking && hasTools) return no('thinking cannot be combined with tools');
  if (ctx.fault('tool-choice-auto-refused') && b.tool_choice === 'auto') return no('`tool_choice` "auto" is not supported');
  if (ctx.fault('fim-needs-max-tokens') && endpoint === 'fim_completions' && b.max_tokens === undefined) return no('`max_tokens` is required');
  const msgs = Array.isArray(b.messages) ? b.messages : [];
  const last = msgs[msgs.length - 1];
  if (ctx.fault('prefix-refused') && base === 'beta' && isRecord(last) && last.prefix === true) return no('prefix completion is not available');
  if (endpoint === 'chat_completions') {
    const toolAt = msgs.findIndex((m) => isRecord(m) && m.role === 'tool');
    if (ctx.fault('tool-result-refused') && toolAt >= 0) return no(`\`messages.${toolAt}.role\`: messages with role "tool" are not supported`);
    // An earlier assistant turn: any assistant message but a prefix-completion last message.
    const turnAt = msgs.findIndex((m, i) => isRecord(m) && m.role === 'assistant' && !(i === msgs.length - 1 && m.prefix === true));
    if (ctx.fault('assistant-turn-refused') && turnAt >= 0) return no(`\`messages.${turnAt}.role\`: earlier assistant turns are not supported`);
  }
  if (endpoint === 'messages' && ctx.fault('messages-tool-result-refused')) {
    const at = msgs.findIndex((m) => isRecord(m) && Array.isArray(m.content) && m.content.some((c) => isRecord(c) && c.type === 'tool_result'));
    if (at >= 0) return no(`\`messages.${at}.content\`: tool_result blocks are not supported`);
  }
  return undefined;
}

/**
 * Index of the first assistant turn with `tool_calls` sent back without its `reasoning_content` (what
 * the `thinking-tool-turn-needs-reasoning` fault refuses), or undefined.
 */
function toolTurnWithoutReasoning(b: Record<string, unknown>): number | undefined {
  const msgs = Array.isArray(b.messages) ? b.messages : [];
  const at = msgs.findIndex((m) => isRecord(m) && m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0 && (m.reasoning_content === undefined || m.reasoning_content === null));
  return at < 0 ? undefined : at;
}

/**
 * Index of the first plain assistant turn (no `tool_calls`, not a prefix to complete) sent back
 * without `reasoning_content` (what the `thinking-plain-turn-needs-reasoning` fault refuses), or undefined.
 */
function plainTurnWithoutReasoning(b: Record<string, unknown>): number | undefined {
  const msgs = Array.isArray(b.messages) ? b.messages : [];
  const at = msgs.findIndex((m) => isRecord(m) && m.role === 'assistant' && m.prefix !== true && !(Array.isArray(m.tool_calls) && m.tool_calls.length > 0) && (m.reasoning_content === undefined || m.reasoning_content === null));
  return at < 0 ? undefined : at;
}

/**
 * The production service's refusal of such a turn, word for word but the index and the provider's
 * documentation link, which a neutral emulator does not name (capture
 * fixtures/real-world/error-400-05-missing-reasoning-content.issue-quote.json).
 */
function missingReasoningRefusal(ctx: EmulatorContext, index: number): Refusal {
  return refusal(ctx.spec, 400, `Missing \`reasoning_content\` field in the assistant message at message index ${index}.`, 'invalid_request_error');
}

function thinkingOn(ctx: EmulatorContext, b: Record<string, unknown>, aliasMode: string | undefined): boolean {
  if (aliasMode !== undefined) return aliasMode !== 'non_think';
  if (b.reasoning_effort === 'none') return ctx.fault('reasoning-effort-none-thinks');
  // Not stated: a current model with no `thinking` field answers in Non-Think mode (CHOICES).
  return isRecord(b.thinking) ? b.thinking.type === 'enabled' : CHOICES.thinkingByDefault;
}

function minCacheTokens(ctx: EmulatorContext): number {
  const m = (ctx.spec.context_caching.min_tokens as { value?: unknown } | undefined)?.value;
  if (typeof m !== 'number') throw new Error('spec context_caching.min_tokens.value is not a number');
  return m;
}

/** The prompt as tokens, in order: what the prefix cache keys on. */
function promptTokenStream(msgs: readonly ChatMessage[]): string[] {
  return msgs.flatMap((m) => [`<${m.role}>`, ...tokenize(typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))]);
}

function readTools(value: unknown): ToolDef[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((t) => {
    if (!isRecord(t) || !isRecord(t.function) || typeof t.function.name !== 'string') return [];
    return [{ name: t.function.name, ...(typeof t.function.description === 'string' ? { description: t.function.description } : {}), parameters: t.function.parameters }];
  });
}

function readToolChoice(value: unknown): ToolChoice {
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isRecord(value) && isRecord(value.function) && typeof value.function.name === 'string') return { name: value.function.name };
  return undefined;
}

function faultyToolChoice(ctx: EmulatorContext, choice: ToolChoice): ToolChoice {
  if (ctx.fault('tool-choice-none-ignored') && choice === 'none') return 'required';
  if (ctx.fault('tool-choice-required-ignored') && choice === 'required') return 'none';
  return choice;
}

function applyOutputFaults(ctx: EmulatorContext, g: Generated, tools: readonly ToolDef[], thinking: boolean, key: string): void {
  const call = g.toolCalls[0];
  if (call) {
    if (ctx.fault('tool-arguments-not-json')) call.arguments = call.arguments.slice(0, -1);
    if (ctx.fault('tool-arguments-off-schema')) call.arguments = '{}';
    if (ctx.fault('tool-choice-named-ignored')) {
      const other = tools.find((t) => t.name !== call.name);
      call.name = other ? other.name : `${call.name}_other`;
    }
    if (ctx.fault('tool-finish-reason-stop')) g.finishReason = 'stop';
    if (ctx.fault('tool-call-unoffered-function')) call.name = UNOFFERED_FUNCTION;
  }
  if (ctx.fault('length-says-stop') && g.finishReason === 'length') g.finishReason = 'stop';
  if (ctx.fault('reasoning-when-disabled') && !thinking) g.reasoning = 'Thinking about it anyway.';
  if (ctx.fault('json-mode-not-json') && g.toolCalls.length === 0) g.content = `Sure! ${g.content}`;
  if (ctx.fault('non-ascii-mangled')) {
    g.content = mojibake(g.content);
    if (g.reasoning !== null) g.reasoning = mojibake(g.reasoning);
  }
  if (ctx.fault('stateful-history')) {
    // The key's earlier answers, as a server that keeps a conversation per key would echo them: all
    // of the last few, not only the last (the checks of a run interleave their requests).
    const previous = ctx.history.get(key) ?? [];
    ctx.history.set(key, [...previous, g.content].slice(-REMEMBERED_ANSWERS));
    if (previous.length > 0) g.content = `${g.content} (as I said: ${previous.join(' / ')})`;
  }
}

/** Every character is ASCII (JSON.stringify keeps non-ASCII characters as they are). */
const isAscii = (text: string): boolean => /^[\x00-\x7f]*$/.test(text);

/** A text's UTF-8 bytes read as Latin-1: what a server that decodes with the wrong charset sends (`café` as `cafÃ©`). */
const mojibake = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');
