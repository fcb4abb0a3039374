import type { Spec, TypeExpr } from '#harness/spec/model.ts';
import type { CheckContext, CheckRequest } from '../context.ts';
import { modelMax } from '../support/build.ts';
import { chat, SAMPLE_TOOLS } from '../support/requests.ts';

/** A request a gateway check sends, named for the report. */
export type Case = { name: string; request: CheckRequest };

/** A numeric field's value inside its bounds and off its default: the upstream must get it as sent. */
function offDefault(expr: TypeExpr): number | undefined {
  const { minimum: min, maximum: max } = expr as { minimum?: unknown; maximum?: unknown };
  const d = typeof expr.default === 'number' ? expr.default : undefined;
  const lo = typeof min === 'number' ? min : undefined;
  const hi = typeof max === 'number' ? max : undefined;
  if (expr.type !== 'number' && expr.type !== 'integer') return undefined;
  const around = d ?? lo ?? hi;
  if (around === undefined) return undefined;
  const candidates = [lo !== undefined ? (lo + around) / 2 : around - 0.25, hi !== undefined ? (around + hi) / 2 : around + 0.25].map((v) => (expr.type === 'integer' ? Math.round(v) : Math.round(v * 100) / 100));
  return candidates.find((v) => v !== d && (lo === undefined || v >= lo) && (hi === undefined || v <= hi));
}

/**
 * The chat-format requests whose every parameter must reach the upstream as sent: the request
 * object's numeric fields off their defaults (from the spec), with stop, max_tokens and logprobs;
 * tools with a tool_choice; JSON output; thinking. Each only with fields the spec's request object has.
 */
export function parameterSets(spec: Spec, ctx: CheckContext): Case[] {
  const fields = spec.objects.chat_completion_request?.fields ?? {};
  const has = (f: string) => fields[f] !== undefined;
  const numeric = Object.fromEntries(Object.entries(fields).flatMap(([name, expr]) => {
    if (name === 'max_tokens' || name === 'top_logprobs') return [];
    const v = offDefault(expr);
    return v === undefined ? [] : [[name, v]];
  }));
  const sampling = { ...numeric, ...(has('stop') ? { stop: ['XYZZY-END'] } : {}), ...(has('max_tokens') ? { max_tokens: 24 } : {}), ...(has('logprobs') ? { logprobs: true } : {}), ...(has('top_logprobs') ? { top_logprobs: 2 } : {}) };
  const sets = [
    { name: 'sampling', request: chat(ctx, sampling) },
    ...(has('tools') ? [{ name: 'tools', request: chat(ctx, { messages: [{ role: 'user', content: 'What is the weather in Paris? Call one of the functions.' }], tools: SAMPLE_TOOLS, ...(has('tool_choice') ? { tool_choice: 'required' } : {}) }) }] : []),
    ...(has('response_format') ? [{ name: 'json', request: chat(ctx, { messages: [{ role: 'user', content: 'Answer in JSON: an object with a key "greeting".' }], response_format: { type: 'json_object' } }) }] : []),
    ...(has('thinking') ? [{ name: 'thinking', request: chat(ctx, { thinking: { type: 'enabled' }, ...(has('reasoning_effort') ? { reasoning_effort: 'high' } : {}), max_tokens: 64 }) }] : []),
  ];
  return sets;
}

/** The answers whose content, reasoning, tool calls, finish reason and logprobs must reach the client as sent. */
export function answerSets(spec: Spec, ctx: CheckContext, stream: boolean): Case[] {
  const streamed = (r: CheckRequest): CheckRequest => (stream ? { ...r, body: { ...(r.body as object), stream: true } } : r);
  return parameterSets(spec, ctx).filter((s) => s.name !== 'json').map((s) => ({ name: s.name, request: streamed(s.request) }));
}

/**
 * The smallest request, its text naming the case: requests asking the upstream for different
 * answers never share a body, so a replay answers each with its own recording (core/marker.ts).
 */
export const asked = (ctx: CheckContext, tag: string, extra: Record<string, unknown> = {}): CheckRequest => chat(ctx, { messages: [{ role: 'user', content: `Say hello in five words. (${tag})` }], ...extra });

/** Requests the service refuses, each a value one step past its bound (the spec's): `temperature` above its maximum, `max_tokens` above the model's. */
export function beyondBounds(spec: Spec, ctx: CheckContext): Case[] {
  const t = spec.objects.chat_completion_request?.fields.temperature as { maximum?: unknown } | undefined;
  const max = modelMax(spec, ctx.model);
  return [
    ...(typeof t?.maximum === 'number' ? [{ name: 'temperature beyond its maximum', request: chat(ctx, { temperature: t.maximum + 1 }) }] : []),
    ...(max ? [{ name: 'max_tokens beyond the model\'s maximum', request: chat(ctx, { max_tokens: max.reject }) }] : []),
  ];
}

/**
 * The request whose refusal the error checks judge: max_tokens beyond the model's maximum, which
 * gateways pass on (Portkey clamps a temperature to its provider's range, and the upstream then
 * answers). Final: the answer is judged as it came (checks/context.ts).
 */
export function refusedRequest(spec: Spec, ctx: CheckContext): CheckRequest {
  const all = beyondBounds(spec, ctx);
  return { ...(all.at(-1) ?? { request: chat(ctx, { messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: -1 }) }).request, final: true };
}
