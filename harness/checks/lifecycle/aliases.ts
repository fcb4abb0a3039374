import type { Spec } from '#harness/spec/model.ts';
import { defineCheck, gradeOf, type Check } from '../define.ts';
import { get, isObject, readJson } from '../support/body.ts';
import { failure, outcomeOf, pass, skip, statusDefect } from '../support/outcome.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { retirementState } from '../support/retirement.ts';
import { chatBody } from '../support/requests.ts';
import { sample } from '../support/samples.ts';
import type { CheckContext, CheckRequest } from '../context.ts';
import { shapeHandOff } from '../support/handoff.ts';

/** A request to a replacement of a legacy alias, with the settings its entry gives (`thinking` off for svc-chat's). */
function replacementRequest(ctx: CheckContext, r: { model: string; request?: Record<string, unknown> }): CheckRequest {
  return { base: 'base_url', method: 'POST', path: '/chat/completions', body: { ...chatBody(ctx), model: ctx.mapModel(r.model), ...(r.request ?? {}) } };
}

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
        ...gradeOf(transition ?? spec.lifecycle),
        specRefs: [`models.${alias}`, 'lifecycle.transitions', 'errors.retired_alias', 'rules.retired-alias.refused'],
        appliesTo: (_m, id) => id === alias,
        // After retirement, the refusal's control follows it.
        chain: 2,
        async run(ctx) {
          const s = await retirementState(ctx, model);
          if ('indeterminate' in s) return skip(s.indeterminate, 'inconclusive');
          const res = await ctx.send({ base: 'base_url', method: 'POST', path: '/chat/completions', body: chatBody(ctx) });
          if (s.state === 'retired') {
            const failures = await judgeRefusal(ctx, res, { error: true, status_unspecified: true }, `${alias} after retirement (${s.at})`);
            const first = model.replacement?.[0];
            if (failures.length > 0 || first === undefined) return outcomeOf(failures);
            // A refusal is of the alias only where a valid request is accepted: its replacement, as replacement-works asks it (one answer).
            const { res: valid } = await sample(ctx, replacementRequest(ctx, first));
            return valid.status === 200 ? pass(`refused after retirement (${s.at}); its replacement ${first.model} is accepted`) : skip(`inconclusive: its replacement ${first.model} is refused too (HTTP ${valid.status}): refusing ${alias} shows nothing of its retirement`, 'inconclusive');
          }
          const { body } = await readJson(res);
          if (res.status !== 200) return outcomeOf([failure(`${alias} before retirement (${s.at}) was answered HTTP ${res.status}`, res, statusDefect(res))]);
          // An answer without a message shows no routing: its shape is the schema's defect.
          if (!isObject(get(body, 'choices', 0, 'message'))) return shapeHandOff(ctx, 'chat_completion', res, body, `${alias} before retirement (${s.at}) was answered with no message (choices[0].message) to show its routing`, '/choices/0/message');
          const reasoning = get(body, 'choices', 0, 'message', 'reasoning_content');
          const reasons = typeof reasoning === 'string' && reasoning.length > 0;
          if (reasons !== thinking) return outcomeOf([failure(`${alias} routes to ${model.routes_to!.mode}: expected ${thinking ? 'reasoning_content' : 'no reasoning_content'}, got ${JSON.stringify(reasoning)?.slice(0, 60)}`, res)]);
          return pass(`active at the reference time (${s.at})`);
        },
      }),
      defineCheck({
        id: `lifecycle.${alias}.replacement-works`,
        title: `the replacement of ${alias} (${(model.replacement ?? []).map((r) => r.model).join(' or ')}) is served`,
        ...gradeOf(spec.lifecycle),
        specRefs: ['lifecycle.replacement', `models.${alias}.replacement`],
        appliesTo: (_m, id) => id === alias,
        chain: 2,
        async run(ctx) {
          const failures = [];
          for (const r of model.replacement ?? []) {
            const { res } = await sample(ctx, replacementRequest(ctx, r));
            if (res.status !== 200) failures.push(failure(`replacement ${r.model} ${JSON.stringify(r.request ?? {})} answered HTTP ${res.status}`, res, statusDefect(res)));
          }
          return outcomeOf(failures);
        },
      }),
    );
  }
  return checks;
}
