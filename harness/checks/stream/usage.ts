import { SpecInvalidError } from '#harness/core/errors/SpecInvalidError.ts';
import type { Spec } from '#harness/spec/model.ts';
import { currentModels, defineCheck, gradeOf, type Check } from '../define.ts';
import { failure, outcomeOf, skip } from '../support/outcome.ts';
import { streamedWithUsage } from '../support/samples.ts';
import { brokeOff, type ReadStream } from '../support/stream.ts';

/** Where a stream's usage arrived, against the production service's final chunk; undefined when there. */
export function usagePlacement(stream: ReadStream): string | undefined {
  const at = stream.usageAt;
  if (!at) return 'the stream sends no usage, though the request asked for it with `stream_options.include_usage`';
  const final = stream.finishes.first.at(-1);
  if (final === at.chunk) return undefined;
  if (!at.withChoices) return `usage arrives in a chunk of its own with no choices (chunk ${at.chunk}${final === undefined ? '' : `, after the final chunk ${final}`}), where the production service sends it in the final chunk with \`finish_reason\``;
  return `usage arrives in chunk ${at.chunk}, not in the final chunk${final === undefined ? '' : ` (${final})`} with \`finish_reason\``;
}

/**
 * Usage in a stream: where it arrives (advisory: not described). Its sums are usage.stream-*, at must.
 * The one check that reports a usage carrier (streaming.yaml `usage_carrier`): the grammar checks read past it.
 */
export function streamUsageChecks(spec: Spec): Check[] {
  const rule = spec.streaming.rules.find((r) => r.id === 'stream.usage-in-final-chunk');
  if (!rule) throw new Error('spec streaming.rules has no `stream.usage-in-final-chunk`, which a check enforces');
  // readStream reads the carrier by this shape and place; a spec saying otherwise is not what is judged.
  const carrier = spec.streaming.usage_carrier;
  if (carrier.after !== 'final_chunk' || !Array.isArray(carrier.shape.choices) || carrier.shape.choices.length > 0 || carrier.shape.usage !== 'present') {
    throw new SpecInvalidError([{ file: 'spec/', line: 0, column: 0, path: 'streaming.usage_carrier', message: `readStream reads a usage carrier as \`{ choices: [], usage: present }\` after the final chunk; the spec says ${JSON.stringify({ shape: carrier.shape, after: carrier.after })}` }]);
  }
  return [
    defineCheck({
      id: 'stream.usage.in-final-chunk',
      title: 'asked for with stream_options.include_usage, usage arrives in the final chunk, with finish_reason',
      ...gradeOf(rule),
      specRefs: ['streaming.rules.stream.usage-in-final-chunk', 'streaming.usage_carrier'],
      appliesTo: currentModels,
      async run(ctx) {
        const { res, stream } = await streamedWithUsage(ctx);
        if (res.status !== 200 || !stream) return skip(`the streamed request was answered HTTP ${res.status}, so where usage arrives cannot be seen`, 'inconclusive');
        if (stream.error !== undefined) return outcomeOf([failure(brokeOff(stream), res)]);
        const why = usagePlacement(stream);
        return outcomeOf(why ? [failure(why, res)] : []);
      },
    }),
  ];
}
