import type { Meaning, Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { shapeHandOff } from '../support/handoff.ts';
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
 * The sum a usage object breaks, or why it cannot be judged (a field absent or not a number). In a
 * completion, a usage the schema requires is the schema check's defect on this same answer, handed
 * there; a part it leaves optional, and a stream's usage (the description does not say a stream
 * sends it), are premises that failed.
 */
function judgeSum(ctx: CheckContext, usage: unknown, sum: NonNullable<Meaning['sum']>, res: CheckResponse, body: unknown | undefined): CheckOutcome {
  const where = body === undefined ? 'the stream' : 'the completion';
  const lacks = (what: string) => (body === undefined ? skip(`inconclusive: ${where}: ${what} (the description does not say a stream sends usage)`, 'inconclusive') : shapeHandOff(ctx, 'chat_completion', res, body, `${where}: ${what}`, '/usage', { premise: 'the description does not require it' }));
  if (!isObject(usage)) return lacks('carries no usage object to add up');
  const a = addUp(usage, sum);
  if ('missing' in a) return lacks(`usage has no numeric ${a.missing.map((n) => `\`${n}\``).join(', ')} to add up`);
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
    const common = { ...gradeOf(meaning), specRefs: [`meanings.${id}`, 'objects.usage'], appliesTo: currentModels };
    return [
      defineCheck({
        ...common,
        id: `usage.${names.subject}.${names.expectation}`,
        title,
        async run(ctx) {
          const { res, body, unreadable } = await plainCompletion(ctx);
          if (res.status !== 200 || body === undefined) return skip(`the completion request was answered HTTP ${res.status}${unreadable ? ` (${unreadable})` : ''}, so usage cannot be judged`, 'inconclusive');
          return judgeSum(ctx, get(body, 'usage'), sum, res, body);
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
          if (stream.message.usage === undefined || stream.message.usage === null) return skip('inconclusive: the stream sends no usage, even asked with `stream_options.include_usage` (the description does not say it does)', 'inconclusive');
          const last = judgeSum(ctx, stream.message.usage, sum, res, undefined);
          // Usage sent on several chunks (on every one, or twice): each sum holds where it was sent.
          // One that cannot be added up (a part left out) is not judged, as the last one would not be.
          const earlier = stream.earlierUsage.first.flatMap(({ chunk, usage }) => {
            const a = addUp(usage, sum);
            return 'missing' in a || a.holds ? [] : [failure(`the stream's usage at chunk ${chunk}: ${a.terms} = ${a.added}, but ${sum.total} is ${a.total}`, res, { path: '/usage' })];
          });
          if (earlier.length === 0) return last;
          return outcomeOf([...(last.verdict === 'fail' ? (last.failures ?? []) : []), ...earlier]);
        },
      }),
    ];
  });
}
