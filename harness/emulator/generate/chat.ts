import { isRecord } from '#harness/core/isRecord.ts';
import { prng, seedFrom, type Prng } from './prng.ts';
import { countTokens, firstTokens } from './tokenize.ts';
import { valueFromSchema } from './valueFromSchema.ts';
import { reasoningText, sentences } from './words.ts';

export interface ToolDef {
  name: string;
  description?: string;
  parameters?: unknown;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string } | undefined;

/** What generation needs from a chat request, already read and defaulted by the route. */
export interface ChatInput {
  seed: number;
  messages: readonly { role: string; content: unknown }[];
  thinking: boolean;
  effort: 'low' | 'high' | undefined;
  tools: readonly ToolDef[];
  toolChoice: ToolChoice;
  jsonMode: boolean;
  stop: readonly string[];
  /** Budget for reasoning and answer together. */
  maxTokens: number;
  /** Prefix completion: the reply continues this text (and does not repeat it). */
  prefix?: string;
  /**
   * Tokens of padding a tool call's arguments carry (the `tool-call-cut-off` fault): a string
   * property runs on for this many more tokens, so a `max_tokens` of the usual size cuts the call.
   */
  padToolArguments?: number;
}

export interface GeneratedToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Generated {
  reasoning: string | null;
  content: string;
  toolCalls: GeneratedToolCall[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  /** The stop sequence that ended the output, when one did. */
  stopSequence?: string;
  reasoningTokens: number;
  completionTokens: number;
}

/**
 * Deterministic completion text for a request and seed. Three conventions let checks predict the
 * answer, and a real model asked the same tends to do the same:
 * - a last user message of the form `Repeat: <text>` makes the answer exactly <text> (to place a stop
 *   sequence in it, say);
 * - a last user message asking `What is the code word?` is answered with the code word stated last in
 *   the messages sent (see CODE_WORD_QUESTION), so a check can show the answer depends on the history;
 * - after a tool result (the last message has role `tool`), the answer is text quoting the result.
 */
export function generateChat(input: ChatInput): Generated {
  const rng = prng(seedFrom(input.seed, [input.messages, input.tools.map((t) => t.name), input.jsonMode, input.thinking, input.effort, input.prefix ?? null]));
  const reasoningFull = input.thinking ? reasoningText(rng, input.effort === 'high' ? rng.int(30, 60) : input.effort === 'low' ? rng.int(6, 12) : rng.int(12, 30)) : null;

  let budget = input.maxTokens;
  let reasoning = reasoningFull;
  let reasoningTokens = 0;
  if (reasoning !== null) {
    reasoningTokens = countTokens(reasoning);
    if (reasoningTokens >= budget) {
      reasoning = firstTokens(reasoning, budget);
      return { reasoning, content: '', toolCalls: [], finishReason: 'length', reasoningTokens: budget, completionTokens: budget };
    }
    budget -= reasoningTokens;
  }

  const tool = chooseTool(input);
  if (tool) {
    const value = valueFromSchema(tool.parameters ?? { type: 'object', properties: {} }, rng);
    const args = JSON.stringify(input.padToolArguments ? padded(value, input.padToolArguments, rng) : value);
    const call = { id: `call_${Math.floor(rng.next() * 2 ** 32).toString(16).padStart(8, '0')}`, name: tool.name, arguments: args };
    const tokens = countTokens(tool.name) + countTokens(args);
    // The budget bounds the call as it bounds text: the arguments written up to it, then "length".
    if (tokens > budget) {
      call.arguments = firstTokens(args, budget - countTokens(tool.name));
      return { reasoning, content: '', toolCalls: [call], finishReason: 'length', reasoningTokens, completionTokens: input.maxTokens };
    }
    return { reasoning, content: '', toolCalls: [call], finishReason: 'tool_calls', reasoningTokens, completionTokens: reasoningTokens + tokens };
  }

  let content = answerText(input, rng);
  let finishReason: Generated['finishReason'] = 'stop';
  const cut = earliestStop(content, input.stop);
  let stopSequence: string | undefined;
  if (cut !== undefined) {
    stopSequence = input.stop.find((s) => s !== '' && content.startsWith(s, cut.index));
    content = content.slice(0, cut.index);
  }
  if (countTokens(content) > budget) {
    content = firstTokens(content, budget);
    finishReason = 'length';
    stopSequence = undefined;
  }
  return { reasoning, content, toolCalls: [], finishReason, ...(stopSequence !== undefined ? { stopSequence } : {}), reasoningTokens, completionTokens: reasoningTokens + countTokens(content) };
}

/**
 * Arguments run on: the first string property (one added, `notes`, when there is none) followed
 * by `tokens` more tokens of text. Still valid JSON when nothing cuts it.
 */
function padded(value: unknown, tokens: number, rng: Prng): unknown {
  const args: Record<string, unknown> = isRecord(value) ? { ...value } : {};
  const name = Object.keys(args).find((k) => typeof args[k] === 'string') ?? 'notes';
  const start = typeof args[name] === 'string' ? (args[name] as string) : '';
  // `sentences` gives about one token per word plus one per period: ask for enough words, then trim.
  args[name] = firstTokens(`${start} ${sentences(rng, tokens)}`, countTokens(start) + tokens);
  return args;
}

function lastUserText(input: ChatInput): string {
  for (let i = input.messages.length - 1; i >= 0; i--) {
    const m = input.messages[i]!;
    if (m.role === 'user') return typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');
  }
  return '';
}

/** A message's text: the string, or the `text` of its content parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
  }
  return content === null || content === undefined ? '' : JSON.stringify(content);
}

const REPEAT = /(?:^|\n)\s*repeat:\s?([\s\S]*)$/i;

/**
 * The code-word convention. A last user message asking `What is the code word?` is answered with the
 * code word stated most recently in the messages sent (any role, an earlier message or the same one),
 * written `code word: X` or `code word is X`; with none stated, the answer says it does not know. A
 * real model does the same: it can only answer from the conversation it is sent, so a check can show
 * the answer depends on the history (an endpoint that drops earlier turns cannot know the word).
 */
export const CODE_WORD_QUESTION = /what is the code word\?/i;
export const CODE_WORD_STATED = /code word(?:\s*:\s*|\s+is\s+)([\w-]+)/gi;
/** The answer when no code word was stated; it states none itself. */
export const CODE_WORD_UNKNOWN = 'I do not know the code word. No code word was stated in this conversation.';

function codeWordAnswer(input: ChatInput): string | undefined {
  if (!CODE_WORD_QUESTION.test(lastUserText(input))) return undefined;
  for (let i = input.messages.length - 1; i >= 0; i--) {
    const stated = [...textOf(input.messages[i]!.content).matchAll(CODE_WORD_STATED)].at(-1);
    if (stated) return `The code word is ${stated[1]!}.`;
  }
  return CODE_WORD_UNKNOWN;
}

/** After a tool round trip (the last messages have role `tool`), text quoting each result, in order. */
function toolResultAnswer(input: ChatInput): string | undefined {
  const results: string[] = [];
  for (let i = input.messages.length - 1; i >= 0 && input.messages[i]!.role === 'tool'; i--) results.unshift(textOf(input.messages[i]!.content));
  return results.length === 0 ? undefined : `The tool returned: ${results.join('; ')}`;
}

function answerText(input: ChatInput, rng: Prng): string {
  const repeat = REPEAT.exec(lastUserText(input));
  const conventional = toolResultAnswer(input) ?? (repeat ? undefined : codeWordAnswer(input));
  if (input.jsonMode) {
    return JSON.stringify({ answer: conventional ?? (repeat ? repeat[1] : sentences(rng, rng.int(4, 10))), confidence: Math.round(rng.next() * 100) / 100 });
  }
  if (conventional !== undefined && input.prefix === undefined) return conventional;
  if (repeat && input.prefix === undefined) return repeat[1]!;
  // A prefix inside the text to repeat: the reply continues the text from where the prefix ends.
  const at = repeat && input.prefix ? repeat[1]!.indexOf(input.prefix) : -1;
  if (repeat && at >= 0) return repeat[1]!.slice(at + input.prefix!.length);
  return (input.prefix !== undefined ? ' ' : '') + sentences(rng, rng.int(8, 30));
}

/**
 * A tool is called when forced, or under `auto` when the last user message names it; never right
 * after a tool result. Every format's tool calling goes through this one choice.
 */
function chooseTool(input: ChatInput): ToolDef | undefined {
  if (input.tools.length === 0 || input.toolChoice === 'none') return undefined;
  const last = input.messages[input.messages.length - 1];
  if (last?.role === 'tool') return undefined;
  const text = lastUserText(input);
  const named = input.tools.find((t) => text.includes(t.name));
  const choice = input.toolChoice;
  if (typeof choice === 'object') return input.tools.find((t) => t.name === choice.name);
  if (input.toolChoice === 'required') return named ?? input.tools[0];
  return named;
}

/** Where the first stop sequence begins, if any occurs. */
export function earliestStop(text: string, stops: readonly string[]): { index: number } | undefined {
  let best: number | undefined;
  for (const s of stops) {
    if (s === '') continue;
    const i = text.indexOf(s);
    if (i >= 0 && (best === undefined || i < best)) best = i;
  }
  return best === undefined ? undefined : { index: best };
}
