import type { Spec } from '#harness/spec/model.ts';
import { defaultModelOnly, defineCheck, type Check } from '../define.ts';
import { failure, outcomeOf, skip } from '../support/outcome.ts';
import { sample } from '../support/samples.ts';

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

export function modelChecks(_spec: Spec): Check[] {
  return [
    defineCheck({
      id: 'models.list.names-model-ids',
      title: 'GET /models answers 200 with a list naming model ids',
      area: 'models',
      severity: 'must',
      specRefs: ['endpoints.list_models', 'objects.model_entry.fields.id'],
      appliesTo: defaultModelOnly,
      async run(ctx) {
        const { res, body } = await sample(ctx, 'models', () => ({ base: 'base_url', method: 'GET', path: '/models' }));
        if (res.status !== 200) return outcomeOf([failure(`GET /models answered ${res.status}`, res)]);
        return outcomeOf(idsIn(body).length > 0 ? [] : [failure('the model list names no id', res)]);
      },
    }),
    defineCheck({
      id: 'models.list.lists-current-models',
      title: 'the model list names every current model of the spec',
      area: 'models',
      severity: 'advisory',
      specRefs: ['models', 'models.*.listed_in_models_endpoint'],
      appliesTo: defaultModelOnly,
      async run(ctx) {
        const { res, body } = await sample(ctx, 'models', () => ({ base: 'base_url', method: 'GET', path: '/models' }));
        if (res.status !== 200) return skip(`GET /models answered ${res.status}`);
        const ids = new Set(idsIn(body));
        const current = Object.entries(ctx.spec.models).filter(([, m]) => m.kind === 'current').map(([id]) => ctx.mapModel(id));
        const missing = current.filter((id) => !ids.has(id));
        return outcomeOf(missing.map((id) => failure(`${id} is not listed`, res)));
      },
    }),
  ];
}
