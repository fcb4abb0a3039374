import type { Meaning, Spec } from '#harness/spec/model.ts';
import type { CheckOutcome, CheckResponse } from '../context.ts';
import { currentModels, defineCheck, gradeOf, type Check } from '../define.ts';
import { addUp } from '#harness/derive/meanings/sums.ts';
import { get, isObject } from '../support/body.ts';
import { failure, outcomeOf, skip } from '../support/outcome.ts';
import { plainCompletion, streamedWithUsage } from '../support/samples.ts';
import { brokeOff } from '../support/stream.ts';

/** Check ids are stable names: each sum of meanings.yaml keeps the id its check always had. */
const SUBJECTS: Record<string, { subject: string; expectation: string }> = {
  'usage-total-is-sum': { subject: 'total', expectation: 'equals-prompt-plus-completion' },
  'usage-cache-split-is-prompt': { subject: 'cache', expectation: 'hit-plus-miss-equals-prompt' },
};

/**
 * The sum a usage object breaks, or why it cannot be judged (a field absent or not a number): an
 * absent field is its own verdict, reported once by `owner`, the schema check that judged this same answer.
 */
function judgeSum(usage: unknown, sum: NonNullable<Meaning['sum']>, res: CheckResponse, where: string, owner: string): CheckOutcome {
  if (!isObject(usage)) return skip(`inconclusive: ${where} carries no usage object to add up (${owner} judges the same answer and reports its absence)`, 'inconclusive');
  const a = addUp(usage, sum);
  if ('missing' in a) return skip(`inconclusive: ${where}: usage has no numeric ${a.missing.map((n) => `\`${n}\``).join(', ')} to add up (${owner} judges the same answer and reports it)`, 'inconclusive');
  if (a.holds) return outcomeOf([]);
  return outcomeOf([failure(`${where}: ${a.terms} = ${a.added}, but ${sum.total} is ${a.total}`, res, { path: '/usage' })]);
}

/**
 * Usage arithmetic, from meanings.yaml: a total is the sum of its parts, in a body and in a stream
 * (where the stream sends usage, asked with `stream_options.include_usage`; the description does not say it does).
 */
export function usageChecks(spec: Spec): Check[] {
  return Object.entries(spec.meanings).flatMap(([id, meaning]) => {
    const sum = meaning.sum;
    const names = SUBJECTS[id];
    if (!sum || sum.object !== 'usage' || !names) return [];
    const title = `${sum.parts.join(' + ')} = ${sum.total}`;
    const common = { area: 'usage', ...gradeOf(meaning), specRefs: [`meanings.${id}`, 'objects.usage'], appliesTo: currentModels };
    return [
      defineCheck({
        ...common,
        id: `usage.${names.subject}.${names.expectation}`,
        title,
        async run(ctx) {
          const { res, body, unreadable } = await plainCompletion(ctx);
          if (res.status !== 200 || body === undefined) return skip(`the completion request was answered HTTP ${res.status}${unreadable ? ` (${unreadable})` : ''}, so usage cannot be judged`, 'inconclusive');
          return judgeSum(get(body, 'usage'), sum, res, 'the completion', 'schema.chat-completion.matches-schema');
        },
      }),
      defineCheck({
        ...common,
        id: `usage.stream-${names.subject}.${names.expectation}`,
        title: `${title}, in the usage a stream sends`,
        specRefs: [...common.specRefs, 'objects.chat_completion_chunk.fields.usage'],
        async run(ctx) {
          const { res, stream } = await streamedWithUsage(ctx);
          if (res.status !== 200 || !stream) return skip(`the streamed request was answered HTTP ${res.status}, so usage cannot be judged`, 'inconclusive');
          if (stream.error !== undefined) return outcomeOf([failure(brokeOff(stream), res)]);
          if (stream.message.usage === undefined || stream.message.usage === null) return skip('the stream sends no usage, even asked with `stream_options.include_usage` (the description does not say it does; stream.usage.in-final-chunk reports it)', 'inconclusive');
          return judgeSum(stream.message.usage, sum, res, 'the stream', 'schema.stream-chunk.matches-unstated-shapes');
        },
      }),
    ];
  });
}
