import { handOff, schemaCheckOf, shapeHandOff } from '../support/handoff.ts';
import type { CheckContext, CheckResponse } from '../context.ts';
import { sample } from '../support/samples.ts';
import type { Spec } from '#harness/spec/model.ts';
import { currentModels, defaultModelOnly, defineCheck, gradeOf, type Check } from '../define.ts';
import { get, isObject, readJson } from '../support/body.ts';
import { inconclusive } from '../support/cooperation.ts';
import { failure, outcomeOf, shown } from '../support/outcome.ts';
import { chat } from '../support/requests.ts';

/** Each place of a JSON value and the type found there; array items share one place (`[]`). */
function shapeOf(value: unknown, at = '', out = new Map<string, string>()): Map<string, string> {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (!out.has(at || '/')) out.set(at || '/', type);
  if (Array.isArray(value)) value.forEach((v) => shapeOf(v, `${at}/[]`, out));
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) shapeOf(v, `${at}/${k}`, out);
  return out;
}

/** Fields whose values must be the same on both bases: what was answered and by which model. */
const MUST_AGREE = ['object', 'model'];
const MAX_DIFFERENCES = 10;

/**
 * How two answers to the same request differ in what identical behaviour fixes: the field set, the
 * field types, and the values that must agree. Text, ids and times may differ between two answers.
 */
export function differences(root: unknown, alias: unknown): string[] {
  const [ra, rb] = [shapeOf(root), shapeOf(alias)];
  const out: string[] = [];
  for (const [path, type] of ra) {
    if (!rb.has(path)) out.push(`\`${path}\` is in the {base_url} answer but not in the /v1 answer`);
    else if (rb.get(path) !== type) out.push(`\`${path}\` is ${type} in the {base_url} answer but ${rb.get(path)} in the /v1 answer`);
  }
  for (const path of rb.keys()) if (!ra.has(path)) out.push(`\`${path}\` is in the /v1 answer but not in the {base_url} answer`);
  for (const k of MUST_AGREE) {
    const [x, y] = [get(root, k), get(alias, k)];
    if (x !== undefined && y !== undefined && x !== y) out.push(`\`${k}\` is ${JSON.stringify(x)} on {base_url} but ${JSON.stringify(y)} on /v1`);
  }
  return out.length > MAX_DIFFERENCES ? [...out.slice(0, MAX_DIFFERENCES), `and ${out.length - MAX_DIFFERENCES} more difference(s)`] : out;
}

/**
 * Why two answers cannot be compared: one of them is a "not now" (429, 503) given on every try the
 * retry guidance allows, which says nothing of the path that gave it.
 */
function notNow(ctx: CheckContext, root: CheckResponse, alias: CheckResponse): string | undefined {
  const statuses = ctx.spec.errors.retry.statuses;
  const [which, res] = statuses.includes(root.status) ? ['{base_url}', root] : statuses.includes(alias.status) ? ['{base_url}/v1', alias] : [undefined, undefined];
  return which === undefined ? undefined : `${which} answered ${res!.status} on every try, so the two paths cannot be compared`;
}

/** {base_url}/v1 is a compatibility alias with identical behaviour: the same answers to the same asks. */
export function baseChecks(spec: Spec): Check[] {
  const v1 = spec.bases.v1;
  if (!v1) return [];
  return [
    defineCheck({
      id: 'bases.v1.chat-parity',
      title: 'a chat request on {base_url}/v1 is answered as on {base_url}: same status, fields, types, object and model',
      ...gradeOf(v1),
      specRefs: ['bases.v1'],
      appliesTo: currentModels,
      async run(ctx) {
        const m = ctx.spec.models[ctx.model];
        // Thinking on, where the model has it, so the answers carry what a rewriting path may drop.
        const thinking = Array.isArray(m?.thinking_modes) && m.thinking_modes.length > 1 ? { thinking: { type: 'enabled' } } : {};
        const ask = { messages: [{ role: 'user', content: 'Repeat: the same answer on both bases' }], ...thinking };
        const [root, alias] = await Promise.all([ctx.send(chat(ctx, ask)), ctx.send(chat(ctx, ask, 'v1'))]);
        const [a, b] = await Promise.all([readJson(root), readJson(alias)]);
        const waiting = notNow(ctx, root, alias);
        if (waiting) return inconclusive(waiting);
        if (alias.status !== root.status) return outcomeOf([failure(`{base_url}/v1 answered ${alias.status} where {base_url} answered ${root.status}`, alias)]);
        if (a.ok !== b.ok) return outcomeOf([failure(a.ok ? `the /v1 answer is not JSON (${(b as { why: string }).why}) where the {base_url} answer is` : 'the /v1 answer is JSON where the {base_url} answer is not', alias)]);
        if (!a.ok || !b.ok) return handOff(schemaCheckOf('chat_completion'), failure(`neither answer is JSON (${(a as { why: string }).why}), so there are no fields to compare`, root));
        // Two answers alike in having nothing compare nothing: parity needs fields to hold.
        if (!isObject(a.body) || Object.keys(a.body).length === 0) return inconclusive(`the {base_url} answer carries no field to compare (${shown(a.body)})`);
        return outcomeOf(differences(a.body, b.body).map((d) => failure(d, alias)));
      },
    }),
    defineCheck({
      id: 'bases.v1.same-models',
      title: '{base_url}/v1 lists the same models as {base_url}',
      ...gradeOf(v1),
      specRefs: ['bases.v1', 'endpoints.list_models'],
      appliesTo: defaultModelOnly,
      async run(ctx) {
        // The model list the models checks judge, and its /v1 twin: shared answers.
        const [{ res: root, body: rootBody }, { res: alias, body: aliasBody }] = await Promise.all([sample(ctx, { base: 'base_url', method: 'GET', path: '/models' }), sample(ctx, { base: 'v1', method: 'GET', path: '/models' })]);
        const ids = (body: unknown) => JSON.stringify(((get(body, 'data') as unknown[]) ?? []).map((m) => get(m, 'id')).sort());
        const [a, b] = [ids(rootBody), ids(aliasBody)];
        const waiting = notNow(ctx, root, alias);
        if (waiting) return inconclusive(waiting);
        if (alias.status !== root.status) return outcomeOf([failure(`GET {base_url}/v1/models answered ${alias.status} where GET {base_url}/models answered ${root.status}`, alias)]);
        if (alias.status !== 200) return outcomeOf([failure(`{base_url}/v1/models answered ${alias.status}`, alias)]);
        if (!Array.isArray(get(rootBody, 'data')) && !Array.isArray(get(aliasBody, 'data'))) return shapeHandOff(ctx, 'model_list', root, rootBody, 'neither list carries `data`, so there are no model ids to compare', '/data');
        return outcomeOf(a === b ? [] : [failure(`model ids differ: ${a} vs ${b}`, alias)]);
      },
    }),
  ];
}
