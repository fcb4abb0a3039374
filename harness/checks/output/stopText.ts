import type { Spec } from '#harness/spec/model.ts';
import { currentModels, defineCheck, gradeOf, type Check } from '../define.ts';
import { get, readJson } from '../support/body.ts';
import { inconclusive, reachedStop, runsPastStop, STOP, stopControl } from '../support/cooperation.ts';
import { failure, outcomeOf, pass, shown, statusDefect } from '../support/outcome.ts';
import { chat } from '../support/requests.ts';
import { cutOff, refusedForParameters } from '../support/premises.ts';
import { sample, settled } from '../support/samples.ts';
import { SCRIPT_STOP } from '../support/scripts.ts';
import { handOffOnModel } from '../support/handoff.ts';
import { SCRIPTS_ANSWERED } from '../answer/scripts.ts';

/**
 * The stop sequence itself is left out of the output: not stated by the description, so advisory.
 * A stop sequence in other scripts ends the output as an ASCII one does: the rule's own strength.
 */
export function outputChecks(spec: Spec): Check[] {
  const rule = spec.rules.find((r) => r.id === 'chat.stop.not-in-output');
  if (!rule) return [];
  return [
    defineCheck({
      id: 'output.stop-sequence.left-out',
      title: 'the stop sequence that ended the output is not part of it',
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
    nonAsciiStopCheck(rule),
  ];
}

/**
 * chat.stop.not-in-output with a stop sequence outside ASCII (CJK and an emoji: three- and
 * four-byte UTF-8, a UTF-16 surrogate pair): nothing follows it, as nothing follows an ASCII one.
 * Its control is the ASCII check's kind (the same prompt without `stop` shows the endpoint repeats
 * it), sent beside the request with `stop`: one round trip, alongside the ASCII stop checks.
 */
function nonAsciiStopCheck(rule: Spec['rules'][number]): Check {
  return defineCheck({
    id: 'output.stop-sequence.non-ascii-ends-output',
    title: 'a stop sequence outside ASCII (CJK, emoji) ends the output as an ASCII one does',
    ...gradeOf(rule),
    specRefs: [`rules.${rule.id}`, 'objects.chat_completion_request.fields.stop'],
    appliesTo: currentModels,
    async run(ctx) {
      const request = chat(ctx, { messages: [{ role: 'user', content: SCRIPT_STOP.prompt }], stop: [SCRIPT_STOP.sequence] });
      const asked = ctx.send(request);
      const control = stopControl(ctx, SCRIPT_STOP);
      await settled(asked, control);
      const res = await asked;
      const { body } = await readJson(res);
      const content = get(body, 'choices', 0, 'message', 'content');
      const seen = await control;
      if (res.status !== 200 || typeof content !== 'string') {
        // Refused for `stop` where the same prompt without it is answered: a valid value refused, unless the acceptance check of `stop` owns it.
        const owned = await refusedForParameters(ctx, request, res, ['stop']);
        if (owned) return owned;
        // The control is the same request without `stop`, shared: asking for it again sends nothing.
        const without = (await sample(ctx, chat(ctx, { messages: [{ role: 'user', content: SCRIPT_STOP.prompt }] }))).res.status;
        const what = `the request with the stop sequence ${shown(SCRIPT_STOP.sequence)} was answered HTTP ${res.status}`;
        if (res.status !== 200 && without === 200) return outcomeOf([failure(`${what}, while the same prompt without \`stop\` was answered 200`, res, statusDefect(res))]);
        // The prompt in other scripts refused with and without `stop`: the script's defect, which the answer check judges.
        if (res.status !== 200) return handOffOnModel(SCRIPTS_ANSWERED, failure(`${what}, and the same prompt without \`stop\` HTTP ${without}`, res, statusDefect(res)));
        return inconclusive(`the request with \`stop\` was answered HTTP ${res.status} without a message to look into`);
      }
      if (seen.why !== undefined) return inconclusive(seen.why);
      const past = runsPastStop(content, seen.text, SCRIPT_STOP);
      const finish = get(body, 'choices', 0, 'finish_reason');
      const out = [...(past ? [failure(past, res)] : []), ...(finish !== 'stop' && finish !== 'length' ? [failure(`finish_reason is ${shown(finish)}, expected "stop"`, res)] : [])];
      if (out.length > 0) return outcomeOf(out);
      const cut = cutOff(body);
      if (cut) return inconclusive(cut);
      const notThere = reachedStop(content, seen.text, SCRIPT_STOP);
      return notThere ? inconclusive(notThere) : pass(`the output ended at the stop sequence ${shown(SCRIPT_STOP.sequence)}: ${shown(content)}`);
    },
  });
}
