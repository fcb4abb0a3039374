import { deepEqual } from '#harness/core/deepEqual.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import type { Condition, Rule, Spec } from '#harness/spec/model.ts';
import { ENDPOINT, isRefusal, type JsonObject } from './specReading.ts';

/** Where a generated request goes: the spec's model id and the base. */
export interface Site {
  model: string;
  base: string;
}

export function getPath(body: unknown, dotted: string): unknown {
  let v = body;
  for (const key of dotted.split('.')) {
    if (Array.isArray(v) && /^[0-9]+$/.test(key)) v = v[Number(key)];
    else v = isRecord(v) ? v[key] : undefined;
  }
  return v;
}

/** JSON null reads as absent, as clients that serialise unset fields write them. */
const isPresent = (v: unknown) => v !== undefined && v !== null;


/**
 * Whether a condition holds for a body at a site. Conditions the body cannot decide (a wrong type,
 * a value out of bounds, an unknown model, the clock, an account) count as not holding: the
 * arbitraries never produce them by accident, and field bounds are read from objects.yaml instead.
 */
export function conditionHolds(spec: Spec, c: Condition, body: JsonObject, site: Site): boolean {
  if (c.unknown_model || c.wrong_type || c.out_of_bounds || c.above !== undefined || c.body || c.after || c.account) return false;
  const tests: boolean[] = [];
  if (c.field !== undefined) {
    const v = getPath(body, c.field);
    if (c.present !== undefined) tests.push(isPresent(v) === c.present);
    if ('equals' in c) tests.push(deepEqual(v, c.equals));
    if ('not_equals' in c) tests.push(!deepEqual(v, c.not_equals));
    if (c.in) tests.push(c.in.some((x) => deepEqual(v, x)));
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  if (c.last_message) {
    const last: unknown = messages[messages.length - 1];
    const want = c.last_message;
    let holds = isRecord(last) && last.role === want.role;
    if (holds && want.prefix !== undefined) holds = want.prefix === 'absent' ? !isPresent((last as JsonObject).prefix) : (last as JsonObject).prefix === want.prefix;
    tests.push(holds);
  }
  if (c.any_message_has !== undefined) tests.push(messages.some((m) => isRecord(m) && isPresent(m[c.any_message_has!])));
  if (c.base !== undefined) tests.push(site.base === c.base);
  if (c.base_not !== undefined) tests.push(site.base !== c.base_not);
  if (c.model !== undefined) tests.push(site.model === c.model);
  if (c.model_kind !== undefined) tests.push(spec.models[site.model]?.kind === c.model_kind);
  return tests.length > 0 && tests.every(Boolean);
}

/**
 * Must-level refusal rules of an endpoint (the chat endpoint unless said) one of whose condition sets holds for the body:
 * what the spec says the service refuses this request for. Empty for a valid request.
 */
export function refusingRules(spec: Spec, body: JsonObject, site: Site, endpoint = ENDPOINT): Rule[] {
  const kind = spec.models[site.model]?.kind;
  return spec.rules.filter((r) => {
    if (r.endpoint !== endpoint || r.strength !== 'must' || !isRefusal(r)) return false;
    if (r.applies_to_models?.kind !== undefined && r.applies_to_models.kind !== kind) return false;
    return [r.when, ...(r.also_when ?? [])].some((set) => set.every((c) => conditionHolds(spec, c, body, site)));
  });
}
