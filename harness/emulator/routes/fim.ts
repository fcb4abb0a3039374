import { randomUUID } from 'node:crypto';
import { jsonResponse } from '../http/respond.ts';
import { refusalResponse } from '../http/refusal.ts';
import { planChat } from './plan.ts';
import { isRecord, readJson, type RouteInput } from './request.ts';

/** POST {beta_base_url}/completions: fill in the middle between `prompt` and `suffix`. */
export async function fimCompletions(input: RouteInput, release: () => void): Promise<Response> {
  try {
    const parsed = await readJson(input);
    if (!parsed.ok) return refusalResponse(parsed.refusal);
    const body = parsed.value;
    const { spec } = input.ctx;
    const prompt = isRecord(body) && typeof body.prompt === 'string' ? body.prompt : '';
    const suffix = isRecord(body) && typeof body.suffix === 'string' ? body.suffix : '';
    // The spec's FIM default applies when max_tokens is left out.
    const fimDefault = spec.objects.fim_request?.fields.max_tokens?.default;
    const applyDefault = isRecord(body) && body.max_tokens === undefined && typeof fimDefault === 'number' && !input.ctx.fault('fim-needs-max-tokens');
    const withDefault = applyDefault ? { ...body, max_tokens: fimDefault } : body;
    const plan = planChat(input.ctx, input.key, input.base, 'fim_completions', withDefault, [{ role: 'user', content: `${prompt}<fim>${suffix}` }]);
    if ('status' in plan) return refusalResponse(plan);
    const choice: Record<string, unknown> = { index: 0, logprobs: null, finish_reason: plan.generated.finishReason };
    if (input.ctx.fault('fim-missing-text')) choice.content = plan.generated.content;
    else choice.text = plan.generated.content;
    return jsonResponse({
      id: `cmpl-${randomUUID()}`,
      object: 'text_completion',
      created: plan.created,
      model: plan.modelId,
      choices: [choice],
      usage: plan.usage,
    });
  } finally {
    release();
  }
}
