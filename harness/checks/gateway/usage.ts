import type { Spec } from '#harness/spec/model.ts';
import { gradeOf, type Check } from '../define.ts';
import { behaviourOf } from '../support/behaviour.ts';
import { inconclusive } from '../support/cooperation.ts';
import { messagesRequest } from '../support/requests.ts';
import { asked } from './chatCases.ts';
import { answerFacts, usageDifferences } from './differences.ts';
import { gatewayCheck, grade } from './gatewayCheck.ts';
import { stopSets } from './messagesCases.ts';
import { messagesFacts, type MessagesFacts } from './messagesFacts.ts';
import { answerFailure, messagesPair } from './messagesPair.ts';
import { eachPair, noted, over, unanswered } from './overPairs.ts';
import { changeFailure, judgedThrough, NO_UPSTREAM, through } from './pair.ts';
import { USAGE } from './translation.ts';

/** Long enough to be cached (the description: content under 64 tokens never is), the same in both requests. */
const CACHED_SYSTEM = `You are a terse assistant. ${Array.from({ length: 40 }, (_, i) => `Rule ${i + 1}: answer briefly and plainly, in the user's language.`).join(' ')}`;

/** Every usage number the upstream reported reaches the client unchanged (the chat format's check). */
export function usageChecks(): Check[] {
  return [
    gatewayCheck({
      id: 'gateway.usage.passed-on',
      title: 'every usage number the upstream reported (cache hit and miss included) reaches the client unchanged, streamed and not',
      ...grade.entailed('`prompt_cache_hit_tokens` (billed at the cache-hit price), `prompt_cache_miss_tokens` (billed at the cache-miss price): usage is what is billed'),
      specRefs: ['objects.usage'],
      async run(ctx) {
        const sets = [
          { name: 'a plain answer', request: asked(ctx, 'usage') },
          { name: 'a stream asking for usage', request: asked(ctx, 'usage', { stream: true, stream_options: { include_usage: true } }) },
        ];
        const results = await eachPair(sets, (request) => judgedThrough(ctx, request), (j) => {
          const not = unanswered(j, 'usage');
          if (not !== undefined) return noted(not);
          const diffs = usageDifferences(j.pair.text, j.up.response.body);
          return { failures: diffs.map((d) => changeFailure(d, 'usage', j.pair.res, j.up)), notes: [], compared: diffs.length > 0 || answerFacts(j.up.response.body).read };
        });
        return over(results, 'the usage numbers reached the client as the upstream reported them');
      },
    }),
  ];
}

/** The usage the upstream reported reaches the client of a messages-format request, through the table. */
export function messagesUsageChecks(spec: Spec): Check[] {
  const answer = behaviourOf(spec.messages_format, 'translated-answer', 'messages_format');
  return [
    gatewayCheck({
      id: 'gateway.messages.usage-passed-on',
      title: 'the usage the upstream reported (cache reads included) reaches the client, in a body and in a stream\'s message_start and message_delta',
      ...gradeOf(answer),
      specRefs: ['messages_format.translated-answer', 'objects.usage'],
      chain: 2,
      async run(ctx) {
        if (ctx.upstream === undefined) return inconclusive(NO_UPSTREAM);
        // The second request's prefix is the first's: the upstream reads it from its cache.
        const cached = (n: number) => messagesRequest(ctx, { system: CACHED_SYSTEM, messages: [{ role: 'user', content: `Say hello in five words. (cached ${n})` }], max_tokens: 16 });
        await through(ctx, cached(1));
        const stops = stopSets(ctx);
        const of = (name: string) => stops.find((s) => s.name === name)!.request;
        const sets = [
          { name: 'a body', request: of('max_tokens reached') },
          { name: 'a stream', request: of('a stream') },
          { name: 'a body read from the cache', request: cached(2) },
        ];
        const results = await eachPair(sets, (request) => messagesPair(ctx, request), (j) => {
          const not = unanswered(j, 'usage');
          if (not !== undefined) return noted(not);
          const judged = usageFailures(j.format, messagesFacts(j.pair.text), j.up.response.body);
          const hits = answerFacts(j.up.response.body).usage?.prompt_cache_hit_tokens;
          return { failures: judged.failures.map((f) => answerFailure(f, 'usage', j)), notes: judged.compared ? (hits ? [`${hits} tokens read from the cache upstream`] : []) : ["the upstream's answer carried no usage"], compared: judged.compared };
        });
        return over(results, 'the usage reached the client as the upstream reported it');
      },
    }),
  ];
}

/**
 * The usage numbers told against the upstream's, through the table: a body's, or a stream's, where
 * every number `message_start` states is judged (its output count excepted, a running one) and the
 * final counts are `message_delta`'s, or `message_start`'s where the delta restates none of them.
 */
function usageFailures(format: 'chat' | 'messages', told: MessagesFacts, upstreamText: string): { failures: string[]; compared: boolean } {
  const places = told.streamed ? ([['message_start', told.start, 'start'], ['message_delta', told.delta, 'delta']] as const) : ([["the body's", told.usage, 'body']] as const);
  if (format === 'messages') {
    const sent = messagesFacts(upstreamText);
    if (!sent.read) return { failures: [], compared: false };
    const failures = places.flatMap(([where, ours, place]) => {
      const theirs = place === 'body' ? sent.usage : place === 'start' ? sent.start : sent.delta;
      return Object.entries(theirs ?? {}).filter(([k]) => !(place === 'start' && k === 'output_tokens')).flatMap(([k, v]) => (ours?.[k] === v ? [] : [`${where} usage.${k}: the upstream said ${v}, the client was told ${ours?.[k] ?? 'nothing'}`]));
    });
    return { failures, compared: true };
  }
  const sent = answerFacts(upstreamText).usage;
  if (sent === undefined) return { failures: [], compared: false };
  const failures = USAGE.flatMap((u) => {
    const theirs = u.chat.reduce((s, k) => s + (sent[k] ?? 0), 0);
    const statedIn = (c: Record<string, number> | undefined) => c !== undefined && u.messages.some((k) => c[k] !== undefined);
    const sum = (c: Record<string, number> | undefined) => u.messages.reduce((s, k) => s + (c?.[k] ?? 0), 0);
    const shown = (c: Record<string, number> | undefined) => u.messages.filter((k) => c?.[k] !== undefined).map((k) => `${k} ${c![k]}`).join(' + ');
    const upstreamSaid = u.chat.map((k) => `${k} ${sent[k] ?? 0}`).join(' + ');
    const wrong = places.flatMap(([where, ours, place]) => {
      if (place === 'start' && !u.streamed.start) return [];
      if (!statedIn(ours) || sum(ours) === theirs) return [];
      return [`${where} ${u.name}: the upstream said ${upstreamSaid}, the client was told ${shown(ours)}`];
    });
    if (wrong.length > 0) return wrong;
    // Nothing stated anywhere: dropped, unless the upstream's own count was 0.
    const final = told.streamed ? (statedIn(told.delta) ? told.delta : u.streamed.start ? told.start : told.delta) : told.usage;
    return !statedIn(final) && theirs > 0 ? [`${u.name}: the upstream said ${upstreamSaid}, the client was told nothing`] : [];
  });
  return { failures, compared: true };
}
