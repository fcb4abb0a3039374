import { SpecInvalidError } from '#harness/core/errors/SpecInvalidError.ts';
import type { Spec } from '#harness/spec/model.ts';
import { currentModels, defineCheck, entryFor, gradeOf, type Check } from '../define.ts';
import type { Json } from '../support/body.ts';
import { failure, outcomeOf, pass, shown, statusDefect } from '../support/outcome.ts';
import { streamedCompletion } from '../support/samples.ts';
import { brokeOff, type ReadStream } from '../support/stream.ts';

const RULE = 'stream.carries-a-choice';
const CHECK = 'stream.chunks.carry-a-choice';

const carries = (chunk: Json | undefined): boolean => Array.isArray(chunk?.choices) && chunk.choices.length > 0;

/**
 * Whether some chunk carried a choice, as readStream's fold shows it: the first or last chunk
 * carries one, or a choice of some chunk carried a finish_reason, text or a tool call (what the
 * fold keeps of the chunks in between). A stream whose middle chunks held only choices with
 * nothing in them shows no choice here; it has no finish_reason either, which the final-chunk
 * check fails at must too.
 */
export function choiceShown(s: ReadStream): boolean {
  const m = s.message;
  return carries(s.first) || carries(s.last) || s.finishes.count > 0 || m.content.chars > 0 || m.reasoning.chars > 0 || m.toolCalls.length > 0 || s.usageAt?.withChoices === true;
}

/** Why the stream shows no choice, in what was seen. */
function noChoice(s: ReadStream): string {
  if (s.chunks === 0) return 'the stream carried no chunk, so none carries a choice';
  if (s.chunks <= 2) return `none of the ${s.chunks} chunk(s) carries a choice (\`choices\` empty or absent in each)`;
  return `no chunk of ${s.chunks} shows a choice: \`choices\` is ${shown(s.first?.choices)} in the first and ${shown(s.last?.choices)} in the last, and no chunk carries a finish_reason, text or a tool call`;
}

/** The whole stream carries its message in some chunk's choices (streaming.yaml `stream.carries-a-choice`). */
export function streamChoiceChecks(spec: Spec): Check[] {
  const rule = entryFor(spec.streaming.rules.find((r) => r.id === RULE), CHECK, `streaming.rules: ${RULE}`);
  // readStream keeps what shows a choice between the first and last chunk, and nothing of another field.
  if (rule.some_chunk?.non_empty !== 'choices') throw new SpecInvalidError([{ file: 'spec/', line: 0, column: 0, path: `streaming.rules: ${RULE}`, message: `check ${CHECK} judges \`some_chunk: { non_empty: choices }\`; the rule says ${JSON.stringify(rule.some_chunk)}` }]);
  return [
    defineCheck({
      id: CHECK,
      title: 'some chunk of the stream carries a choice (a usage-only chunk may carry none)',
      area: 'stream',
      ...gradeOf(rule),
      specRefs: [`streaming.rules.${RULE}`],
      appliesTo: currentModels,
      async run(ctx) {
        const { res, stream } = await streamedCompletion(ctx);
        if (res.status !== 200 || !stream) return outcomeOf([failure(`the streamed request was answered HTTP ${res.status}`, res, statusDefect(res))]);
        if (stream.error !== undefined) return outcomeOf([failure(brokeOff(stream), res)]);
        if (choiceShown(stream)) return pass();
        return outcomeOf([failure(noChoice(stream), res, { path: '/choices', specRef: `streaming.rules.${RULE}`, defect: { kind: 'value', what: 'no chunk of the stream carries a choice', path: '/choices' } })]);
      },
    }),
  ];
}
