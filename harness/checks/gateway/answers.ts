import { deepEqual } from '#harness/core/deepEqual.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome } from '../context.ts';
import { gradeOf, type Check } from '../define.ts';
import { behaviourOf } from '../support/behaviour.ts';
import { inconclusive } from '../support/cooperation.ts';
import { skip } from '../support/outcome.ts';
import { answerSets } from './chatCases.ts';
import { answerDifferences, answerFacts, incidentalChanges } from './differences.ts';
import { gatewayCheck, grade, withUpstream } from './gatewayCheck.ts';
import { stopSets } from './messagesCases.ts';
import { messagesFacts, type MessagesFacts } from './messagesFacts.ts';
import { answerFailure, bodies, messagesPair } from './messagesPair.ts';
import { eachPair, noted, over, unanswered } from './overPairs.ts';
import { changeFailure, judgedThrough, NO_UPSTREAM } from './pair.ts';
import { SEQUENCE_STOP, STOP_REASONS } from './translation.ts';

type Json = Record<string, unknown>;

/** The answer reaches the client as the upstream sent it, whole and streamed (the chat format's checks). */
export function answerChecks(spec: Spec): Check[] {
  return [
    gatewayCheck({
      id: 'gateway.answer.passed-on',
      title: 'content, reasoning, tool calls, finish reason and logprobs reach the client as the upstream sent them',
      ...grade.entailed('the result is one completion object (Chat completion response object), with reasoning in a separate `reasoning_content` output'),
      specRefs: ['objects.chat_completion', 'objects.assistant_message'],
      run: (ctx) => answersPassedOn(spec, ctx, false),
    }),
    gatewayCheck({
      id: 'gateway.stream.passed-on',
      title: 'a stream reaches the client with the content, reasoning, tool calls and finish reason the upstream streamed',
      ...grade.entailed('the result is a stream of Server-Sent Events chunks (Events): the client is given the chunks the service sent'),
      specRefs: ['objects.chat_completion_chunk', 'streaming.events'],
      run: (ctx) => answersPassedOn(spec, ctx, true),
    }),
  ];
}

/** Content, reasoning, tool calls, finish reason and logprobs over the answer sets, streamed or not. */
async function answersPassedOn(spec: Spec, ctx: CheckContext, stream: boolean): Promise<CheckOutcome> {
  const why = withUpstream(ctx);
  if (why !== undefined) return skip(why);
  const results = await eachPair(answerSets(spec, ctx, stream), (request) => judgedThrough(ctx, request), (j) => {
    const { pair, up } = j;
    const not = unanswered(j, 'answer');
    if (not !== undefined) return noted(not);
    if (stream && !up.response.body.includes('[DONE]')) return noted('the upstream stream did not end');
    const diffs = answerDifferences(pair.text, up.response.body);
    const incidental = incidentalChanges({ text: pair.text, headers: pair.res.headers }, { text: up.response.body, headers: up.response.headers });
    return { failures: diffs.map((d) => changeFailure(d, 'answer', pair.res, up)), notes: incidental.length > 0 ? [`changed, carrying no meaning: ${incidental.join('; ')}`] : [], compared: true };
  });
  return over(results, `the ${stream ? 'streamed ' : ''}answer reached the client as the upstream sent it`);
}

/** The upstream's finish reason reaches the client of a messages-format request as the stop reason it means. */
export function messagesAnswerChecks(spec: Spec): Check[] {
  const answer = behaviourOf(spec.messages_format, 'translated-answer', 'messages_format');
  return [
    gatewayCheck({
      id: 'gateway.messages.stop-reason-mapped',
      title: 'the upstream\'s finish reason reaches the client as the stop reason it means (`length` as max_tokens, `tool_calls` as tool_use, `content_filter` apart), streamed and not',
      ...gradeOf(answer),
      specRefs: ['messages_format.translated-answer', 'messages_format.response-shape', 'finish_reasons'],
      async run(ctx) {
        if (ctx.upstream === undefined) return inconclusive(NO_UPSTREAM);
        const results = await eachPair(stopSets(ctx), (request) => messagesPair(ctx, request), (j) => {
          const not = unanswered(j, 'stop reason');
          if (not !== undefined) return noted(not);
          const d = stopDifference(j.format, bodies(j).client, messagesFacts(j.pair.text), j.up.response.body);
          if (d === undefined) return noted('the upstream\'s answer gave no finish reason');
          return { failures: d.failure ? [answerFailure(d.failure, 'stop_reason', j)] : [], notes: d.note ? [d.note] : [], compared: d.failure !== undefined || !d.note.includes('not judged') };
        });
        return over(results, 'each finish reason reached the client as the stop reason it means');
      },
    }),
  ];
}

/** The stop reason told against the upstream's finish reason, through the table (or as it was, for a messages upstream). */
function stopDifference(format: 'chat' | 'messages', client: Json, told: MessagesFacts, upstreamText: string): { failure?: string; note: string } | undefined {
  if (format === 'messages') {
    const sent = messagesFacts(upstreamText);
    if (sent.stop_reason === undefined) return undefined;
    if (told.stop_reason === sent.stop_reason && deepEqual(told.stop_sequence ?? null, sent.stop_sequence ?? null)) return { note: `stop_reason ${JSON.stringify(sent.stop_reason)} as sent` };
    return { failure: `the upstream said stop_reason ${JSON.stringify(sent.stop_reason)}${sent.stop_sequence ? ` (stop_sequence ${JSON.stringify(sent.stop_sequence)})` : ''}, the client was told ${JSON.stringify(told.stop_reason)}${told.stop_sequence ? ` (stop_sequence ${JSON.stringify(told.stop_sequence)})` : ''}`, note: '' };
  }
  const finish = answerFacts(upstreamText).finish_reason;
  if (typeof finish !== 'string') return undefined;
  const entry = STOP_REASONS[finish];
  if (entry === undefined) return { note: `finish_reason ${JSON.stringify(finish)} has no stop reason in the table: not judged` };
  const reason = told.stop_reason;
  if (typeof reason !== 'string' || !entry.stopReasons.includes(reason)) {
    const claimed = Object.entries(STOP_REASONS).find(([f, e]) => f !== finish && typeof reason === 'string' && e.stopReasons.includes(reason))?.[0];
    return { failure: `the upstream's finish_reason ${JSON.stringify(finish)} reached the client as stop_reason ${JSON.stringify(reason)}${claimed ? `, which is what ${JSON.stringify(claimed)} becomes` : ''} (the table: ${entry.stopReasons.map((r) => JSON.stringify(r)).join(' or ')})`, note: '' };
  }
  if (reason === SEQUENCE_STOP) {
    const sequences = Array.isArray(client.stop_sequences) ? client.stop_sequences : [];
    if (!sequences.includes(told.stop_sequence)) return { failure: `the client was told stop_reason "stop_sequence" with stop_sequence ${JSON.stringify(told.stop_sequence)}, none of the sequences it sent (${JSON.stringify(sequences)}): finish_reason "stop" from the upstream`, note: '' };
  }
  return { note: `finish_reason ${JSON.stringify(finish)} -> stop_reason ${JSON.stringify(reason)}` };
}
