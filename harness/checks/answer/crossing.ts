import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { currentModels, defineCheck, entryFor, gradeOf, type Check } from '../define.ts';
import { get } from '../support/body.ts';
import { chat, longPrompt } from '../support/requests.ts';
import { failure, outcomeOf, pass, skip } from '../support/outcome.ts';

/**
 * Word counts of the prompts sent at once: each twice the one before or more, so that in any
 * tokenizer each counts more prompt tokens than the one before it (the same words, repeated).
 */
export const CROSSING_PROMPT_WORDS = [1, 4, 10, 22, 46, 94, 190, 380] as const;

interface Answered {
  words: number;
  res: CheckResponse;
  promptTokens?: number;
}

/**
 * Prompts of rising length sent all at once (as many in flight as the run allows): each answer's
 * usage.prompt_tokens must rise with its prompt. An answer handed to another request reports that
 * request's count, out of order with its neighbours: no rest measurement is needed, since the
 * same words repeated never count fewer tokens.
 */
async function judgeCrossing(ctx: CheckContext): Promise<CheckOutcome> {
  const answered: Answered[] = await Promise.all(
    CROSSING_PROMPT_WORDS.map(async (words, i) => {
      const res = await ctx.send(chat(ctx, { messages: [{ role: 'user', content: `Crossing probe ${i}. Reply with one word. ${longPrompt(words)}` }], max_tokens: 1 }));
      const body = res.status === 200 ? await res.json().catch(() => undefined) : await res.text().then(() => undefined);
      const p = get(body, 'usage', 'prompt_tokens');
      return { words, res, ...(typeof p === 'number' ? { promptTokens: p } : {}) };
    }),
  );
  // Only answers that say what they counted can be told apart; the others are other checks' defects.
  const told = answered.filter((a): a is Answered & { promptTokens: number } => a.res.status === 200 && a.promptTokens !== undefined);
  if (told.length < 2) return skip(`inconclusive: ${told.length} of ${answered.length} prompts sent at once were answered 200 with usage.prompt_tokens, so no two answers could be told apart`, 'inconclusive');
  const failures = [];
  for (let i = 1; i < told.length; i++) {
    const [before, after] = [told[i - 1]!, told[i]!];
    if (after.promptTokens > before.promptTokens) continue;
    failures.push(failure(`answers crossed: the prompt of ${after.words} words was answered with usage.prompt_tokens ${after.promptTokens}, no more than the ${before.promptTokens} of the prompt of ${before.words} words sent with it: an answer to another request`, after.res));
  }
  if (failures.length > 0) return outcomeOf(failures);
  return pass(`${told.length} prompts sent at once were each answered with a prompt count rising with its length`, told.length);
}

export function crossingChecks(spec: Spec): Check[] {
  const id = 'answer.requests.not-crossed';
  const meaning = entryFor(spec.meanings['answer-belongs-to-request'], id, 'meanings.answer-belongs-to-request');
  return [
    defineCheck({
      id,
      title: 'Each answer, with other requests in flight, is the answer to its own request',
      area: 'answer',
      ...gradeOf(meaning),
      specRefs: ['meanings.answer-belongs-to-request'],
      appliesTo: currentModels,
      run: judgeCrossing,
    }),
  ];
}
