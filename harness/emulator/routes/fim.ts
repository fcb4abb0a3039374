import { randomUUID } from 'node:crypto';
import { CHOICES } from '../choices.ts';
import type { EmulatorContext } from '../context.ts';
import { tokenize } from '../generate/tokenize.ts';
import { dataEvent, jsonResponse, sseResponse } from '../http/respond.ts';
import { refusalResponse } from '../http/refusal.ts';
import { EXTRA_FIELD, usageFields } from './chat.ts';
import { planChat, type ChatPlan } from './plan.ts';
import { isRecord, readJson, type RouteInput } from './request.ts';

/** POST {beta_base_url}/completions: fill in the middle between `prompt` and `suffix`. */
export async function fimCompletions(input: RouteInput, release: () => void): Promise<Response> {
  let streaming = false;
  try {
    const parsed = await readJson(input);
    if (!parsed.ok) return refusalResponse(parsed.refusal);
    const body = parsed.value;
    const { ctx } = input;
    const prompt = isRecord(body) && typeof body.prompt === 'string' ? body.prompt : '';
    const suffix = isRecord(body) && typeof body.suffix === 'string' ? body.suffix : '';
    // The spec's FIM default applies when max_tokens is left out.
    const fimDefault = ctx.spec.objects.fim_request?.fields.max_tokens?.default;
    const applyDefault = isRecord(body) && body.max_tokens === undefined && typeof fimDefault === 'number' && !ctx.fault('fim-needs-max-tokens');
    const withDefault = applyDefault ? { ...body, max_tokens: fimDefault } : body;
    const plan = planChat(ctx, input.key, input.base, 'fim_completions', withDefault, { messages: [{ role: 'user', content: `${prompt}<fim>${suffix}` }] });
    if ('status' in plan) return refusalResponse(plan);
    const id = `cmpl-${randomUUID()}`;
    // Streamed after the provider's public FIM reference (CHOICES.fimStreams); the fault answers JSON.
    if (isRecord(body) && body.stream === true && CHOICES.fimStreams && !ctx.fault('fim-stream-ignored')) {
      streaming = true;
      return sseResponse(fimEvents(ctx, plan, id), { intervalMs: ctx.streamPause, onClose: release });
    }
    return jsonResponse({ id, object: 'text_completion', created: plan.created, model: plan.modelId, choices: [fimChoice(ctx, plan.generated.content, plan.generated.finishReason)], usage: usageFields(ctx, plan.usage) });
  } finally {
    // A stream holds its slot until it ends (sseResponse's onClose releases it).
    if (!streaming) release();
  }
}

/** A choice of the legacy completions format: the filled text under `text` (the `fim-missing-text` fault: `content`). */
function fimChoice(ctx: EmulatorContext, text: string, finishReason: string | null): Record<string, unknown> {
  const choice: Record<string, unknown> = { index: 0, logprobs: null, finish_reason: finishReason };
  if (ctx.fault('fim-missing-text')) choice.content = text;
  else choice.text = text;
  return choice;
}

/** The filled middle piece by piece, a final chunk with `finish_reason` and `usage`, then `[DONE]`. */
function* fimEvents(ctx: EmulatorContext, plan: ChatPlan, id: string): Generator<string> {
  const chunk = (text: string, finishReason: string | null, extra: Record<string, unknown> = {}) => ({
    id,
    object: 'text_completion',
    created: plan.created,
    model: plan.modelId,
    choices: [fimChoice(ctx, text, finishReason)],
    ...extra,
    ...(ctx.fault('extra-fields') ? EXTRA_FIELD : {}),
  });
  for (const piece of tokenize(plan.generated.content)) yield dataEvent(chunk(piece, null));
  yield dataEvent(chunk('', plan.generated.finishReason, { usage: usageFields(ctx, plan.usage) }));
  yield dataEvent('[DONE]');
}
