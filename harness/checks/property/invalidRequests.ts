import { breakableRules, invalidChatRequest, type InvalidChatRequest } from '#harness/derive/arbitraries/index.ts';
import type { Expectation, Spec } from '#harness/spec/model.ts';
import type { CheckContext } from '../context.ts';
import { currentModels, defineCheck, type Check } from '../define.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { requestText } from './describe.ts';
import { runProperty, type Problem } from './runProperty.ts';
import { coverageClasses } from '#harness/derive/arbitraries/coverageClasses.ts';
import { chat } from '../support/requests.ts';
import { sample } from '../support/samples.ts';
import { inconclusive } from '../support/cooperation.ts';
import { COVERAGE_REQUESTS, INVALID_CLASSES_ID, planClasses } from './invalidClasses.ts';

/** Sends a request that breaks one rule and judges the refusal: the spec's status (any 4xx when it names none) and a well-formed error envelope. */
async function judgeRefused(ctx: CheckContext, { request, broken }: InvalidChatRequest): Promise<Problem | undefined> {
  const res = await ctx.send({ base: 'base_url', method: 'POST', path: '/chat/completions', body: request });
  const expect: Expectation = broken.statuses ? { status_any_of: broken.statuses } : { error: true };
  const failures = await judgeRefusal(ctx, res, expect, `${broken.what}, which breaks ${broken.ruleId}`);
  const first = failures[0];
  if (!first) return undefined;
  const pointer = `/${broken.field.split('.').join('/')}`;
  return { message: first.message, res, extra: { path: first.path ?? pointer, specRef: first.specRef ?? `rules.${broken.ruleId}`, ...(first.defect ? { defect: first.defect } : {}) } };
}

/**
 * The coverage phase, when it sends a class of the counterexample's kind and field (a wrong type
 * of `model`, whichever): one defect, reported there when it fails there too (runner/owned.ts).
 */
function coveredBy(ctx: CheckContext, { broken }: InvalidChatRequest): string | undefined {
  const base = chat(ctx).body as Record<string, unknown>;
  const { classes, unsendable } = coverageClasses(ctx.spec, { model: ctx.model, sentAs: ctx.targetModel }, base);
  const template = broken.field.split('.').map((s) => (/^[0-9]+$/.test(s) ? '*' : s)).join('.');
  const sent = planClasses(ctx.spec, classes, unsendable, ctx.options.coverage ?? COVERAGE_REQUESTS).send;
  return sent.some((c) => c.kind === broken.kind && c.field === template) ? INVALID_CLASSES_ID : undefined;
}

/** Rules the arbitrary breaks on the spec's current models: the check's specRefs. */
function refs(spec: Spec): string[] {
  const models = Object.entries(spec.models).filter(([, m]) => currentModels(m)).map(([id]) => id);
  return [...new Set(models.flatMap((model) => breakableRules(spec, { model })))].map((id) => `rules.${id}`);
}

/**
 * Requests breaking exactly one rule of the spec (a value beyond a bound or off a list, a missing
 * field, a wrong type, a cross-field rule) are refused with the status that rule names and a
 * well-formed error envelope. A failure shrinks to the smallest such request, sent once more before
 * it is reported.
 */
export function invalidRequestsCheck(spec: Spec): Check {
  return defineCheck({
    id: 'property.invalid-requests.refused-with-spec-status',
    title: 'requests breaking one rule of the spec are refused with the status it names and an error envelope',
    severity: 'must',
    basis: 'stated',
    specRefs: refs(spec),
    appliesTo: currentModels,
    chain: 'runs',
    async run(ctx) {
      const arbitrary = invalidChatRequest(ctx.spec, { model: ctx.model, sentAs: ctx.targetModel });
      // A refusal is credited only where a valid request is accepted: the smallest one, shared, sent with the values.
      const control = sample(ctx, chat(ctx));
      const outcome = await runProperty(ctx, { arbitrary, judge: (x) => judgeRefused(ctx, x), owner: async (x) => coveredBy(ctx, x) }, (x) => requestText(x.request));
      // A verdict either way is about the values only where a valid request is accepted.
      const { res } = await control;
      const judged = outcome.verdict === 'pass' || outcome.verdict === 'fail';
      if (judged && res.status !== 200) return inconclusive(`the smallest valid request is answered HTTP ${res.status} too: what the invalid ones were answered shows nothing of them`);
      return outcome;
    },
  });
}
