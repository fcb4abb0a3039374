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
 * Deterministic completion text for a request and seed. A last user message of the form
 * `Repeat: <text>` makes the answer exactly <text>: checks can then predict the output (to place a
 * stop sequence in it, say), and a real model asked the same tends to do the same.
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
    const args = JSON.stringify(valueFromSchema(tool.parameters ?? { type: 'object', properties: {} }, rng));
    const call = { id: `call_${Math.floor(rng.next() * 2 ** 32).toString(16).padStart(8, '0')}`, name: tool.name, arguments: args };
    const tokens = countTokens(tool.name) + countTokens(args);
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

function lastUserText(input: ChatInput): string {
  for (let i = input.messages.length - 1; i >= 0; i--) {
    const m = input.messages[i]!;
    if (m.role === 'user') return typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');
  }
  return '';
}

const REPEAT = /(?:^|\n)\s*repeat:\s?([\s\S]*)$/i;

function answerText(input: ChatInput, rng: Prng): string {
  const repeat = REPEAT.exec(lastUserText(input));
  if (input.jsonMode) {
    return JSON.stringify({ answer: repeat ? repeat[1] : sentences(rng, rng.int(4, 10)), confidence: Math.round(rng.next() * 100) / 100 });
  }
  if (repeat && input.prefix === undefined) return repeat[1]!;
  // A prefix inside the text to repeat: the reply continues the text from where the prefix ends.
  const at = repeat && input.prefix ? repeat[1]!.indexOf(input.prefix) : -1;
  if (repeat && at >= 0) return repeat[1]!.slice(at + input.prefix!.length);
  return (input.prefix !== undefined ? ' ' : '') + sentences(rng, rng.int(8, 30));
}

/** A tool is called when forced, or under `auto` when the last user message names it. */
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
