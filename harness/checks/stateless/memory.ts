import type { Spec } from '#harness/spec/model.ts';
import { defaultModelOnly, defineCheck, severityOf, type Check } from '../define.ts';
import { get } from '../support/body.ts';
import { failure, outcomeOf } from '../support/outcome.ts';
import { chat } from '../support/requests.ts';

/** No conversation is kept between calls: a marker sent in one request never surfaces in another. */
export function statelessChecks(spec: Spec): Check[] {
  return [
    defineCheck({
      id: 'stateless.history.not-kept',
      title: 'an earlier request leaves no trace in the next answer',
      area: 'stateless',
      severity: severityOf(spec.statelessness.strength),
      specRefs: ['statelessness'],
      appliesTo: defaultModelOnly,
      async run(ctx) {
        const marker = `zebra-${Math.random().toString(36).slice(2, 8)}`;
        const first = await ctx.send(chat(ctx, { messages: [{ role: 'user', content: `Repeat: remember the code word ${marker}` }] }));
        await first.text();
        const second = await ctx.send(chat(ctx, { messages: [{ role: 'user', content: 'Repeat: hello' }] }));
        const content = get(await second.json().catch(() => undefined), 'choices', 0, 'message', 'content');
        return outcomeOf(typeof content === 'string' && content.includes(marker) ? [failure(`the answer to a new conversation repeats ${marker} from an earlier request`, second)] : []);
      },
    }),
  ];
}
