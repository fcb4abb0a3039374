import type { Spec } from '#harness/spec/model.ts';
import { currentModels, defineCheck, type Check } from '../define.ts';
import { get, readJson } from '../support/body.ts';
import { inconclusive, STOP, stopControl } from '../support/cooperation.ts';
import { failure, outcomeOf, shown } from '../support/outcome.ts';
import { chat } from '../support/requests.ts';

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
        const res = await ctx.send(chat(ctx, { messages: [{ role: 'user', content: STOP.prompt }], stop: [STOP.sequence] }));
        const content = get((await readJson(res)).body, 'choices', 0, 'message', 'content');
        return outcomeOf(typeof content === 'string' && content.includes(STOP.sequence) ? [failure(`the output contains the stop sequence: ${shown(content)}`, res)] : []);
      },
    }),
  ];
}
