import type { Spec } from '#harness/spec/model.ts';
import { currentModels, defineCheck, type Check } from '../define.ts';
import { get, readJson } from '../support/body.ts';
import { inconclusive, reachedStop, STOP, stopControl } from '../support/cooperation.ts';
import { failure, outcomeOf, pass, shown } from '../support/outcome.ts';
import { chat } from '../support/requests.ts';
import { cutOff, refusedForParameters } from '../support/premises.ts';

/** The stop sequence itself is left out of the output: not stated by the description, so advisory. */
export function outputChecks(spec: Spec): Check[] {
  const rule = spec.rules.find((r) => r.id === 'chat.stop.not-in-output');
  if (!rule) return [];
  return [
    defineCheck({
      id: 'output.stop-sequence.left-out',
      title: 'the stop sequence that ended the output is not part of it',
      area: 'output',
      severity: 'advisory',
      basis: 'unspecified',
      specRefs: [`rules.${rule.id}`],
      appliesTo: currentModels,
      async run(ctx) {
        const control = await stopControl(ctx);
        if (control.why !== undefined) return inconclusive(control.why);
        const request = chat(ctx, { messages: [{ role: 'user', content: STOP.prompt }], stop: [STOP.sequence] });
        const res = await ctx.send(request);
        const { body } = await readJson(res);
        const content = get(body, 'choices', 0, 'message', 'content');
        // No answer with `stop` to look into: a refusal of it is its acceptance check's, any other one shows nothing.
        if (res.status !== 200 || typeof content !== 'string') return (await refusedForParameters(ctx, request, res, ['stop'])) ?? inconclusive(`the request with \`stop\` was answered HTTP ${res.status} without a message to look into`);
        if (content.includes(STOP.sequence)) return outcomeOf([failure(`the output contains the stop sequence: ${shown(content)}`, res)]);
        // An answer cut before it reached the stop text shows nothing of what is done with it.
        const cut = cutOff(body);
        if (cut) return inconclusive(cut);
        const notThere = reachedStop(content, control.text);
        return notThere ? inconclusive(notThere) : pass();
      },
    }),
  ];
}
