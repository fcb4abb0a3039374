import type { Spec } from '#harness/spec/model.ts';
import { defaultModelOnly, defineCheck, gradeOf, type Check } from '../define.ts';
import { get, readJson } from '../support/body.ts';
import { inconclusive, repeated } from '../support/cooperation.ts';
import { failure, outcomeOf, shown } from '../support/outcome.ts';
import { chat } from '../support/requests.ts';

/** No conversation is kept between calls: a marker sent in one request never surfaces in another. */
export function statelessChecks(spec: Spec): Check[] {
  return [
    defineCheck({
      id: 'stateless.history.not-kept',
      title: 'an earlier request leaves no trace in the next answer',
      ...gradeOf(spec.statelessness),
      specRefs: ['statelessness'],
      appliesTo: defaultModelOnly,
      chain: 2,
      async run(ctx) {
        // From the run's seed, not random: a recording of the run replays the same requests.
        const marker = `zebra-${(ctx.options.seed >>> 0).toString(36)}`;
        const first = await ctx.send(chat(ctx, { messages: [{ role: 'user', content: `Repeat: remember the code word ${marker}` }] }));
        const said = get((await readJson(first)).body, 'choices', 0, 'message', 'content');
        // An endpoint that does not repeat the marker could not leak it either: nothing would be seen.
        if (!repeated(said, marker)) return inconclusive(`the first answer does not repeat the code word ${marker} (${shown(said)}), so a trace of it in a later answer could not be seen`);
        const second = await ctx.send(chat(ctx, { messages: [{ role: 'user', content: 'Repeat: hello' }] }));
        const content = get((await readJson(second)).body, 'choices', 0, 'message', 'content');
        if (typeof content === 'string' && content.includes(marker)) return outcomeOf([failure(`the answer to a new conversation repeats ${marker} from an earlier request`, second)]);
        if (!repeated(content, 'hello')) return inconclusive(`the second answer does not repeat "hello" (${shown(content)}): the endpoint did not follow the prompt`);
        return outcomeOf([]);
      },
    }),
  ];
}
