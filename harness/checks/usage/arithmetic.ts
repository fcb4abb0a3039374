import type { Spec } from '#harness/spec/model.ts';
import { currentModels, defineCheck, severityOf, type Check } from '../define.ts';
import { get } from '../support/body.ts';
import { failure, outcomeOf, skip } from '../support/outcome.ts';
import { plainCompletion } from '../support/samples.ts';

const n = (v: unknown) => (typeof v === 'number' ? v : NaN);

/**
 * Usage arithmetic. The description names the fields but states no sum, so both are advisory:
 * `total_tokens` read as prompt + completion, and the cache split read as adding up to the prompt.
 */
export function usageChecks(spec: Spec): Check[] {
  const cacheNote = spec.context_caching.hit_plus_miss_equals_prompt as { strength?: 'must' | 'should' | 'unspecified' } | undefined;
  return [
    defineCheck({
      id: 'usage.total.equals-prompt-plus-completion',
      title: 'total_tokens = prompt_tokens + completion_tokens',
      area: 'usage',
      severity: 'advisory',
      specRefs: ['objects.usage'],
      appliesTo: currentModels,
      async run(ctx) {
        const { res, body } = await plainCompletion(ctx);
        const u = get(body, 'usage');
        if (u === undefined) return skip('no usage to judge (the schema checks report its absence)');
        const [p, c, t] = [n(get(u, 'prompt_tokens')), n(get(u, 'completion_tokens')), n(get(u, 'total_tokens'))];
        return outcomeOf(t === p + c ? [] : [failure(`total_tokens ${t} ≠ prompt_tokens ${p} + completion_tokens ${c}`, res, { path: '/usage/total_tokens' })]);
      },
    }),
    defineCheck({
      id: 'usage.cache.hit-plus-miss-equals-prompt',
      title: 'prompt_cache_hit_tokens + prompt_cache_miss_tokens = prompt_tokens',
      area: 'usage',
      severity: severityOf(cacheNote?.strength ?? 'unspecified'),
      specRefs: ['context_caching.hit_plus_miss_equals_prompt'],
      appliesTo: currentModels,
      async run(ctx) {
        const { res, body } = await plainCompletion(ctx);
        const u = get(body, 'usage');
        if (u === undefined) return skip('no usage to judge');
        const [p, h, m] = [n(get(u, 'prompt_tokens')), n(get(u, 'prompt_cache_hit_tokens')), n(get(u, 'prompt_cache_miss_tokens'))];
        return outcomeOf(h + m === p ? [] : [failure(`hit ${h} + miss ${m} ≠ prompt_tokens ${p}`, res, { path: '/usage' })]);
      },
    }),
  ];
}
