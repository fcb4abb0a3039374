import type { Spec } from '#harness/spec/model.ts';
import { defineCheck, gradeOf, type Check } from '../define.ts';
import { get, readJson } from '../support/body.ts';
import { failure, outcomeOf, pass, skip, statusDefect } from '../support/outcome.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { retirementState } from '../support/retirement.ts';
import { chatBody } from '../support/requests.ts';

export function lifecycleChecks(spec: Spec): Check[] {
  const checks: Check[] = [];
  for (const [alias, model] of Object.entries(spec.models)) {
    if (model.kind !== 'legacy_alias' || !model.retires_at || !model.routes_to) continue;
    const thinking = model.routes_to.mode !== 'non_think';
    const transition = spec.lifecycle.transitions.find((t) => t.from === `${alias}.active`);
    checks.push(
      defineCheck({
        id: `lifecycle.${alias}.state-at-reference-time`,
        title: `${alias} routes to ${model.routes_to.model} (${model.routes_to.mode}) before ${model.retires_at} and is refused, with no fallback, after`,
        area: 'lifecycle',
        ...gradeOf(transition ?? spec.lifecycle),
        specRefs: [`models.${alias}`, 'lifecycle.transitions', 'errors.retired_alias', 'rules.retired-alias.refused'],
        appliesTo: (_m, id) => id === alias,
        async run(ctx) {
          const s = await retirementState(ctx, model);
          if ('indeterminate' in s) return skip(s.indeterminate, 'inconclusive');
          const res = await ctx.send({ base: 'base_url', method: 'POST', path: '/chat/completions', body: chatBody(ctx) });
          if (s.state === 'retired') {
            const failures = await judgeRefusal(ctx, res, { error: true, status_unspecified: true }, `${alias} after retirement (${s.at})`);
            return outcomeOf(failures);
          }
          const { body } = await readJson(res);
          if (res.status !== 200) return outcomeOf([failure(`${alias} before retirement (${s.at}) was answered HTTP ${res.status}`, res, statusDefect(res))]);
          const reasoning = get(body, 'choices', 0, 'message', 'reasoning_content');
          const reasons = typeof reasoning === 'string' && reasoning.length > 0;
          if (reasons !== thinking) return outcomeOf([failure(`${alias} routes to ${model.routes_to!.mode}: expected ${thinking ? 'reasoning_content' : 'no reasoning_content'}, got ${JSON.stringify(reasoning)?.slice(0, 60)}`, res)]);
          return pass(`active at the reference time (${s.at})`);
        },
      }),
      defineCheck({
        id: `lifecycle.${alias}.replacement-works`,
        title: `the replacement of ${alias} (${(model.replacement ?? []).map((r) => r.model).join(' or ')}) is served`,
        area: 'lifecycle',
        ...gradeOf(spec.lifecycle),
        specRefs: ['lifecycle.replacement', `models.${alias}.replacement`],
        appliesTo: (_m, id) => id === alias,
        chain: 2,
        async run(ctx) {
          const failures = [];
          for (const r of model.replacement ?? []) {
            const res = await ctx.send({ base: 'base_url', method: 'POST', path: '/chat/completions', body: { ...chatBody(ctx), model: ctx.mapModel(r.model), ...(r.request ?? {}) } });
            await res.text();
            if (res.status !== 200) failures.push(failure(`replacement ${r.model} ${JSON.stringify(r.request ?? {})} answered HTTP ${res.status}`, res, statusDefect(res)));
          }
          return outcomeOf(failures);
        },
      }),
    );
  }
  return checks;
}
