import type { Basis, Spec, Strength } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { shapeHandOff } from '../support/handoff.ts';
import { currentModels, defineCheck, gradeOf, type Check } from '../define.ts';
import { get, readJson } from '../support/body.ts';
import { failure, outcomeOf, pass } from '../support/outcome.ts';
import { chat, longPrompt } from '../support/requests.ts';
import { inconclusive } from '../support/cooperation.ts';

interface CacheEntry {
  value?: unknown;
  strength?: 'must' | 'should' | 'unspecified';
}

async function twice(ctx: CheckContext, prompt: string) {
  const request = chat(ctx, { messages: [{ role: 'system', content: prompt }, { role: 'user', content: 'Say hello in five words.' }], max_tokens: 8 });
  const first = await ctx.send(request);
  await first.text();
  const second = await ctx.send(request);
  const { body } = await readJson(second);
  // The first answer primes the cache only where it was served; the second is judged only where it was.
  const unserved = [first, second].find((r) => r.status !== 200);
  const why = unserved === undefined ? undefined : `the ${unserved === first ? 'first (priming)' : 'second'} request was answered HTTP ${unserved.status}, so what the cache did cannot be seen`;
  return { res: second, body, hit: get(body, 'usage', 'prompt_cache_hit_tokens'), prompt: get(body, 'usage', 'prompt_tokens'), why };
}

/** Context caching: a repeated long prefix hits the cache; content under the minimum never does. */
/**
 * A cache check sees nothing without the field: the usage table lists it, so its absence is the
 * schema's defect on this answer, handed there (or a premise, were the schema not to require it).
 */
const absentHit = (ctx: CheckContext, res: CheckResponse, body: unknown): CheckOutcome =>
  shapeHandOff(ctx, 'chat_completion', res, body, 'the answer\'s usage has no numeric `prompt_cache_hit_tokens`, so whether it hit the cache cannot be seen', '/usage/prompt_cache_hit_tokens', { premise: 'the description does not require it' });

export function cachingChecks(spec: Spec): Check[] {
  const min = spec.context_caching.min_tokens as CacheEntry;
  const minTokens = typeof min.value === 'number' ? min.value : 64;
  const salt = () => ` [${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}]`;
  return [
    defineCheck({
      id: 'caching.repeated-prefix.hits',
      title: `a repeated prompt prefix of well over ${minTokens} tokens is a cache hit the second time`,
      ...gradeOf(spec.context_caching as { strength?: Strength; basis?: Basis }, 'should'),
      specRefs: ['context_caching'],
      appliesTo: currentModels,
      chain: 2,
      async run(ctx) {
        // The salt makes the prefix new to the cache, whatever ran before.
        const { res, body, hit, why } = await twice(ctx, `${longPrompt(minTokens * 6)}${salt()}`);
        if (why) return inconclusive(why);
        if (typeof hit !== 'number') return absentHit(ctx, res, body);
        return hit > 0 ? pass(`${hit} tokens hit`) : outcomeOf([failure('the repeated prefix was not a cache hit', res)]);
      },
    }),
    defineCheck({
      id: 'caching.short-prompt.never-hits',
      title: `content under ${minTokens} tokens is never cached`,
      ...gradeOf(min),
      specRefs: ['context_caching.min_tokens'],
      appliesTo: currentModels,
      chain: 2,
      async run(ctx) {
        const { res, body, hit, prompt, why } = await twice(ctx, `Be brief.${salt()}`);
        if (why) return inconclusive(why);
        if (typeof prompt === 'number' && prompt >= minTokens) return inconclusive(`the short prompt counted ${prompt} tokens, not under ${minTokens}: nothing to judge`);
        // Absent is not 0: a verdict on the field's value needs the field.
        if (typeof hit !== 'number') return absentHit(ctx, res, body);
        return hit === 0 ? pass() : outcomeOf([failure(`a prompt of ${String(prompt)} tokens reported ${String(hit)} cache-hit tokens`, res)]);
      },
    }),
  ];
}
