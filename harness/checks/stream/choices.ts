import { SpecInvalidError } from '#harness/core/errors/SpecInvalidError.ts';
import type { Spec } from '#harness/spec/model.ts';
import { currentModels, defineCheck, entryFor, gradeOf, type Check } from '../define.ts';
import { failure, outcomeOf, pass, shown, statusDefect } from '../support/outcome.ts';
import { streamedCompletion } from '../support/samples.ts';
import { brokeOff, type ReadStream } from '../support/stream.ts';

const RULE = 'stream.carries-a-choice';
const CHECK = 'stream.chunks.carry-a-choice';

/** Why the stream shows no choice, in what was seen. */
function noChoice(s: ReadStream): string {
  if (s.chunks === 0) return 'the stream carried no chunk, so none carries a choice';
  return `none of the ${s.chunks} chunk(s) carries a choice: \`choices\` is ${shown(s.first?.choices)} in the first${s.chunks > 1 ? ` and ${shown(s.last?.choices)} in the last` : ''}`;
}

/** The whole stream carries its message in some chunk's choices (streaming.yaml `stream.carries-a-choice`). */
export function streamChoiceChecks(spec: Spec): Check[] {
  const rule = entryFor(spec.streaming.rules.find((r) => r.id === RULE), CHECK, `streaming.rules: ${RULE}`);
  // readStream counts the chunks that carry a choice, and nothing of another field.
  if (rule.some_chunk?.non_empty !== 'choices') throw new SpecInvalidError([{ file: 'spec/', line: 0, column: 0, path: `streaming.rules: ${RULE}`, message: `check ${CHECK} judges \`some_chunk: { non_empty: choices }\`; the rule says ${JSON.stringify(rule.some_chunk)}` }]);
  return [
    defineCheck({
      id: CHECK,
      title: 'some chunk of the stream carries a choice (a usage-only chunk may carry none)',
      ...gradeOf(rule),
      specRefs: [`streaming.rules.${RULE}`],
      appliesTo: currentModels,
      async run(ctx) {
        const { res, stream } = await streamedCompletion(ctx);
        if (res.status !== 200 || !stream) return outcomeOf([failure(`the streamed request was answered HTTP ${res.status}`, res, statusDefect(res))]);
        if (stream.error !== undefined) return outcomeOf([failure(brokeOff(stream), res)]);
        if (stream.choiceChunks > 0) return pass();
        return outcomeOf([failure(noChoice(stream), res, { path: '/choices', specRef: `streaming.rules.${RULE}`, defect: { kind: 'value', what: 'no chunk of the stream carries a choice', path: '/choices' } })]);
      },
    }),
  ];
}
