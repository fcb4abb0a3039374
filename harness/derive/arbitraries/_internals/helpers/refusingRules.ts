import { memoPer } from '#harness/core/memoPer.ts';
import { deepEqual } from '#harness/core/deepEqual.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import type { Condition, Rule, Spec } from '#harness/spec/model.ts';
import { ENDPOINT, isRefusal, type JsonObject } from './specReading.ts';

/** Where a generated request goes: the spec's model id and the base. */
export interface Site {
  model: string;
  base: string;
}

/** Each dotted path as keys, an index where a key is one: the rules name a few paths, read for every request drawn. */
const PATHS = new Map<string, (string | number)[]>();

export function getPath(body: unknown, dotted: string): unknown {
  let keys = PATHS.get(dotted);
  if (!keys) {
    keys = dotted.split('.').map((key) => (/^[0-9]+$/.test(key) ? Number(key) : key));
    PATHS.set(dotted, keys);
  }
  let v = body;
  for (const key of keys) {
    if (typeof key === 'number') v = Array.isArray(v) ? v[key] : isRecord(v) ? v[String(key)] : undefined;
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
  return refusalRulesOf(spec, endpoint, spec.models[site.model]?.kind).filter(({ sets }) => sets.some((set) => set.every((c) => conditionHolds(spec, c, body, site)))).map(({ rule }) => rule);
}

/** The rules refusingRules weighs for an endpoint and a kind of model, each with its condition sets: found once per spec, asked for every request drawn. */
const weighed = memoPer<Spec, { rule: Rule; sets: Condition[][] }[]>();

function refusalRulesOf(spec: Spec, endpoint: string, kind: string | undefined): { rule: Rule; sets: Condition[][] }[] {
  return weighed(spec, `${endpoint}\0${kind ?? ''}`, () =>
    spec.rules
      .filter((r) => r.endpoint === endpoint && r.strength === 'must' && isRefusal(r) && (r.applies_to_models?.kind === undefined || r.applies_to_models.kind === kind))
      .map((rule) => ({ rule, sets: [rule.when, ...(rule.also_when ?? [])] })),
  );
}
