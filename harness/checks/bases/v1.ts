import type { Spec } from '#harness/spec/model.ts';
import { currentModels, defaultModelOnly, defineCheck, severityOf, type Check } from '../define.ts';
import { get, isObject } from '../support/body.ts';
import { failure, outcomeOf } from '../support/outcome.ts';
import { chat } from '../support/requests.ts';

/** {base_url}/v1 is a compatibility alias with identical behaviour: the same answers to the same asks. */
export function baseChecks(spec: Spec): Check[] {
  const v1 = spec.bases.v1;
  if (!v1) return [];
  return [
    defineCheck({
      id: 'bases.v1.chat-parity',
      title: 'a chat request on {base_url}/v1 is answered as on {base_url}',
      area: 'bases',
      severity: severityOf(v1.strength),
      specRefs: ['bases.v1'],
      appliesTo: currentModels,
      async run(ctx) {
        const [root, alias] = await Promise.all([ctx.send(chat(ctx)), ctx.send(chat(ctx, {}, 'v1'))]);
        const [a, b] = await Promise.all([root.json().catch(() => undefined), alias.json().catch(() => undefined)]);
        const out = [];
        if (alias.status !== root.status) out.push(failure(`{base_url}/v1 answered ${alias.status} where {base_url} answered ${root.status}`, alias));
        const mustBroken = ctx.judge('chat_completion', b).filter((v) => v.level === 'must');
        if (alias.status === 200 && mustBroken.length > 0) out.push(failure(`the /v1 answer breaks the schema: ${mustBroken[0]!.path} ${mustBroken[0]!.message}`, alias));
        if (isObject(a) && isObject(b) && get(a, 'object') !== get(b, 'object')) out.push(failure('the two answers differ in `object`', alias));
        return outcomeOf(out);
      },
    }),
    defineCheck({
      id: 'bases.v1.same-models',
      title: '{base_url}/v1 lists the same models as {base_url}',
      area: 'bases',
      severity: severityOf(v1.strength),
      specRefs: ['bases.v1', 'endpoints.list_models'],
      appliesTo: defaultModelOnly,
      async run(ctx) {
        const [root, alias] = await Promise.all([ctx.send({ base: 'base_url', method: 'GET', path: '/models' }), ctx.send({ base: 'v1', method: 'GET', path: '/models' })]);
        const ids = async (r: typeof root) => JSON.stringify(((get(await r.json().catch(() => undefined), 'data') as unknown[]) ?? []).map((m) => get(m, 'id')).sort());
        const [a, b] = await Promise.all([ids(root), ids(alias)]);
        if (alias.status !== 200) return outcomeOf([failure(`{base_url}/v1/models answered ${alias.status}`, alias)]);
        return outcomeOf(a === b ? [] : [failure(`model ids differ: ${a} vs ${b}`, alias)]);
      },
    }),
  ];
}
