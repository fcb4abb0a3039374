import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { currentModels, defineCheck, entryFor, gradeOf, type Check } from '../define.ts';
import { get } from '../support/body.ts';
import { chat, longPrompt } from '../support/requests.ts';
import { failure, outcomeOf, pass, skip } from '../support/outcome.ts';
import { readStream } from '../support/stream.ts';

/**
 * Word counts of the prompts sent at once: each twice the one before or more, so that in any
 * tokenizer each counts more prompt tokens than the one before it (the same words, repeated).
 */
export const CROSSING_PROMPT_WORDS = [1, 4, 10, 22, 46, 94, 190, 380] as const;

interface Answered {
  words: number;
  stream: boolean;
  res: CheckResponse;
  promptTokens?: number;
}

/**
 * Sends the prompt of `words` words (the `i`th of the burst), streamed or not, and reads its prompt
 * count. A stream asks for its usage as clients do (servers and gateways send it only when asked).
 */
async function ask(ctx: CheckContext, i: number, stream: boolean): Promise<Answered> {
  const words = CROSSING_PROMPT_WORDS[i]!;
  const res = await ctx.send(chat(ctx, { messages: [{ role: 'user', content: `Crossing probe ${i}. Reply with one word. ${longPrompt(words)}` }], max_tokens: 1, ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) }));
  const usage = res.status !== 200 ? await res.text().then(() => undefined) : stream ? await readStream(res).then((s) => (s.error === undefined ? s.message.usage : undefined)) : get(await res.json().catch(() => undefined), 'usage');
  const p = get(usage, 'prompt_tokens');
  return { words, stream, res, ...(typeof p === 'number' ? { promptTokens: p } : {}) };
}

const told = (a: Answered): a is Answered & { promptTokens: number } => a.res.status === 200 && a.promptTokens !== undefined;

/**
 * Prompts of rising length sent all at once (as many in flight as the run allows), every other one
 * streamed, then the shortest and the longest once more, not streamed. Each answer's usage.prompt_tokens must rise with its prompt
 * (the same words repeated never count fewer tokens), and a prompt sent twice counts the same twice:
 * an answer handed to another request reports that request's count. Answers handed on in order
 * (each to the next request) keep the counts rising, and only the second sending shows them. A
 * stream that sends no usage even asked is told apart by nothing: it is counted as not judged.
 */
async function judgeCrossing(ctx: CheckContext): Promise<CheckOutcome> {
  const burst = await Promise.all(CROSSING_PROMPT_WORDS.map((_, i) => ask(ctx, i, i % 2 === 1)));
  const last = CROSSING_PROMPT_WORDS.length - 1;
  const again = await Promise.all([0, last].map((i) => ask(ctx, i, false)));
  // Only answers that say what they counted can be told apart; the others are other checks' defects.
  const counted = burst.filter(told);
  if (counted.length < 2) return skip(`inconclusive: ${counted.length} of ${burst.length} prompts sent at once were answered 200 with usage.prompt_tokens, so no two answers could be told apart`, 'inconclusive');
  const failures = [];
  for (let i = 1; i < counted.length; i++) {
    const [before, after] = [counted[i - 1]!, counted[i]!];
    if (after.promptTokens > before.promptTokens) continue;
    failures.push(failure(`answers crossed: the prompt of ${after.words} words${after.stream ? ', streamed,' : ''} was answered with usage.prompt_tokens ${after.promptTokens}, no more than the ${before.promptTokens} of the prompt of ${before.words} words sent with it: an answer to another request`, after.res));
  }
  for (const [k, i] of [0, last].entries()) {
    const [first, second] = [burst[i]!, again[k]!];
    if (!told(first) || !told(second) || first.promptTokens === second.promptTokens) continue;
    failures.push(failure(`answers crossed: the prompt of ${first.words} words, sent twice, was answered with usage.prompt_tokens ${first.promptTokens} and then ${second.promptTokens}: one of the two answers is another request's`, second.res));
  }
  if (failures.length > 0) return outcomeOf(failures);
  // Answered 200 without a count: nothing told them apart (a refusal is other checks' to judge).
  const untold = [...burst, ...again].filter((a) => a.res.status === 200 && !told(a));
  const notJudged = untold.length === 0 ? '' : `; not judged: ${untold.length} answer(s) with no usage.prompt_tokens (${untold.filter((a) => a.stream).length} of them streams, asked with stream_options.include_usage), which nothing else tells apart`;
  return pass(`${counted.length} prompts sent at once (streamed and not) were each answered with a prompt count rising with its length, and the shortest and longest counted the same when sent again${notJudged}`, counted.length + again.filter(told).length, untold.length);
}

export function crossingChecks(spec: Spec): Check[] {
  const id = 'answer.requests.not-crossed';
  const meaning = entryFor(spec.meanings['answer-belongs-to-request'], id, 'meanings.answer-belongs-to-request');
  return [
    defineCheck({
      id,
      title: 'Each answer, with other requests in flight, is the answer to its own request',
      ...gradeOf(meaning),
      specRefs: ['meanings.answer-belongs-to-request'],
      appliesTo: currentModels,
      // The burst, then the two prompts again.
      chain: 2,
      run: judgeCrossing,
    }),
  ];
}
