import type { Spec } from '#harness/spec/model.ts';
import { defaultModelOnly, defineCheck, gradeOf, type Check } from '../define.ts';
import { inconclusive } from '../support/cooperation.ts';
import { chat, chatBody } from '../support/requests.ts';
import { get, readJson } from '../support/body.ts';
import { UNKNOWN_MODEL } from '../support/build.ts';
import { failure, outcomeOf } from '../support/outcome.ts';
import { sample } from '../support/samples.ts';
import { statusHandOff } from '../support/handoff.ts';

/** Every string `id` anywhere in a model list (its container shape is not shown). */
function idsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => idsIn(v, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'id' && typeof v === 'string') out.push(v);
      else idsIn(v, out);
    }
  }
  return out;
}

export function modelChecks(spec: Spec): Check[] {
  const served = spec.meanings['models-lists-served-models'] ?? { strength: 'unspecified' as const };
  return [
    defineCheck({
      id: 'models.list.names-model-ids',
      title: 'GET /models answers 200 with a list naming model ids',
      severity: 'must',
      basis: 'stated',
      specRefs: ['endpoints.list_models', 'objects.model_entry.fields.id'],
      appliesTo: defaultModelOnly,
      async run(ctx) {
        const { res, body } = await sample(ctx, { base: 'base_url', method: 'GET', path: '/models' });
        if (res.status !== 200) return outcomeOf([failure(`GET /models answered ${res.status}`, res)]);
        return outcomeOf(idsIn(body).length > 0 ? [] : [failure('the model list names no id', res)]);
      },
    }),
    defineCheck({
      id: 'models.list.lists-current-models',
      title: 'the model list names every current model the endpoint serves',
      ...gradeOf(served),
      specRefs: ['meanings.models-lists-served-models', 'endpoints.list_models', 'models'],
      appliesTo: defaultModelOnly,
      async run(ctx) {
        const current = Object.entries(ctx.spec.models).filter(([, m]) => m.kind === 'current').map(([id]) => id);
        // All asked at once, none waits on another; each is the plain completion the shape checks of
        // that model judge. A model counts as served when the endpoint answers a chat request naming it.
        // An endpoint that answers any id (a single-model server) shows nothing by answering: then a
        // model is served only where the answer names it (the unknown id is the control).
        const [{ res, body }, answers, { res: control }] = await Promise.all([
          sample(ctx, { base: 'base_url', method: 'GET', path: '/models' }),
          Promise.all(current.map(async (id) => ({ id, res: (await sample(ctx, { ...chat(ctx), body: chatBody(ctx, { model: ctx.mapModel(id) }) })).res }))),
          sample(ctx, { ...chat(ctx), body: chatBody(ctx, { model: UNKNOWN_MODEL }) }),
        ]);
        if (res.status !== 200) return statusHandOff('model_list', res, `GET /models answered ${res.status}: no list to look in`);
        const ids = new Set(idsIn(body));
        const anyId = control.status === 200;
        const bodies = await Promise.all(answers.map(async (a) => readJson(a.res)));
        const named = answers.map((a, i) => a.res.status === 200 && (!anyId || get(bodies[i]!.ok ? bodies[i]!.body : undefined, 'model') === ctx.mapModel(a.id)));
        const serving = answers.filter((_, i) => named[i]);
        if (serving.length === 0) return inconclusive(`the endpoint serves none of the current models (${answers.map((a) => `${a.id}: HTTP ${a.res.status}`).join(', ')}${anyId ? `; it answers any id, ${UNKNOWN_MODEL} too, so only an answer naming the model asked shows it served` : ''}), so which it must list cannot be told`);
        const missing = serving.filter((a) => !ids.has(ctx.mapModel(a.id)));
        return outcomeOf(missing.map((a) => failure(`${ctx.mapModel(a.id)} is served (a chat request naming it was answered 200) but GET /models does not list it`, res)));
      },
    }),
  ];
}
