import type { Condition, Rule, Spec } from '#harness/spec/model.ts';
import type { Refusal } from '../http/refusal.ts';
import { conditionHolds, conditionParam, describeCondition, isDecidable } from './conditions.ts';
import type { RequestSite } from './site.ts';
import { expectedStatus, isRefusalExpectation, refusal } from './statuses.ts';

/**
 * Cross-field rules of rules.yaml for the site's endpoint whose `when` (or any `also_when` set)
 * holds for the body and whose `expect` is a refusal (status, status_any_of, or error), in the
 * order of rules.yaml. Returns the first as a Refusal, or undefined.
 *
 * Skipped: rules that expect an acceptance or an effect; rules with a condition the body cannot
 * decide (see conditions.ts); rules whose strength is not `must` (the emulator refuses only what the
 * description states: `reasoning_content` sent back to a current model is a client rule whose
 * service answer is not shown); rules limited by `applies_to_models` to a kind of model the site's
 * model is not.
 */
export function checkRules(spec: Spec, body: Record<string, unknown>, site: RequestSite): Refusal | undefined {
  for (const rule of spec.rules) {
    if (rule.endpoint !== site.endpoint || !isRefusalExpectation(rule.expect) || rule.strength !== 'must') continue;
    if (!appliesToModel(spec, rule, site)) continue;
    const sets: Condition[][] = [rule.when, ...(rule.also_when ?? [])];
    if (!sets.every((set) => set.every(isDecidable))) continue;
    const matched = sets.find((set) => set.every((c) => conditionHolds(spec, c, body, site)));
    if (matched) return ruleRefusal(spec, rule, matched, body, site);
  }
  return undefined;
}

function appliesToModel(spec: Spec, rule: Rule, site: RequestSite): boolean {
  const kind = rule.applies_to_models?.kind;
  if (kind === undefined) return true;
  return site.modelId !== undefined && spec.models[site.modelId]?.kind === kind;
}

/** The statement as the message, the conditions that held as the reason, and the first field they name as param. */
function ruleRefusal(spec: Spec, rule: Rule, matched: Condition[], body: Record<string, unknown>, site: RequestSite): Refusal {
  const statement = rule.statement.trim().replace(/\.$/, '');
  const reason = matched.map((c) => describeCondition(c, body, site)).filter((s) => s !== '').join('; ');
  // A condition on the body's fields names the param better than one on the model.
  const aboutModel = (c: Condition) => c.model !== undefined || c.model_kind !== undefined;
  const ordered = [...matched.filter((c) => !aboutModel(c)), ...matched.filter(aboutModel)];
  const param = ordered.map((c) => conditionParam(c, body)).find((p) => p !== undefined) ?? null;
  return refusal(spec, expectedStatus(spec, rule), `${statement} (here: ${reason}; rule ${rule.id})`, param);
}
