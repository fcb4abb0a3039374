import type { Check } from '../define.ts';
import { inconclusive } from '../support/cooperation.ts';
import { failure, outcomeOf, pass, skip, statusDefect } from '../support/outcome.ts';
import { asked } from './chatCases.ts';
import { answerFacts } from './differences.ts';
import { faultsPossible, gatewayCheck, grade } from './gatewayCheck.ts';
import { judgedThrough } from './pair.ts';

/** How long the upstream waits for the client to receive an event before it calls the stream held. */
const LOCKSTEP_WAIT_MS = 5000;

/** How a stream is passed on: as it comes, and cut where the upstream cut it (what it carries is answers.ts's). */
export function streamChecks(): Check[] {
  return [
    gatewayCheck({
      id: 'gateway.stream.not-held',
      title: 'a stream is passed on as it comes: each event reaches the client before the upstream sends the next',
      severity: 'should',
      basis: { entailed: 'a stream of Server-Sent Events chunks is selected by `stream` = true so the output arrives as it is made; the text names no consequence of a gateway holding it, so should' },
      specRefs: ['streaming.events'],
      async run(ctx) {
        const why = faultsPossible(ctx);
        if (why !== undefined) return skip(why);
        // The upstream sends each event only once the client has its text, or after this wait: judged by
        // order, not by wall time. The wait is long enough that a loaded machine never meets it on a
        // gateway that passes events on; a gateway that holds the stream costs it once.
        const j = await judgedThrough(ctx, { ...asked(ctx, 'lockstep', { stream: true, max_tokens: 16 }), upstream: { kind: 'lockstep', waitMs: LOCKSTEP_WAIT_MS } });
        if ('why' in j) return inconclusive(j.why);
        const { up } = j;
        if (up.fault === undefined) return inconclusive(`the upstream's answer (HTTP ${up.response.status}) was not a stream it could send in lockstep`);
        if (up.stalledAfter !== undefined) return outcomeOf([failure(`the upstream waited ${up.stalledAfter.waitedMs} ms after event ${up.stalledAfter.event} and the client had not received it: the gateway held the stream back`, j.pair.res, { defect: { kind: 'value', what: `stream held after event ${up.stalledAfter.event}`, path: 'stream' } })]);
        const facts = answerFacts(j.pair.text);
        return pass(`each event reached the client before the next was sent (${(facts.content ?? '').length} characters)`, 1);
      },
    }),
    gatewayCheck({
      id: 'gateway.stream.cut-not-finished',
      title: 'a stream the upstream cut off never reaches the client as a finished answer',
      ...grade.entailed('finish_reason is present only in the final chunk, and `data: [DONE]` ends the stream (Events): a finish the service never sent tells the client the answer is whole'),
      specRefs: ['streaming.events', 'objects.chat_completion_chunk'],
      async run(ctx) {
        const why = faultsPossible(ctx);
        if (why !== undefined) return skip(why);
        const j = await judgedThrough(ctx, { ...asked(ctx, 'cut', { stream: true, max_tokens: 32 }), final: true, retry: false, upstream: { kind: 'cut', afterEvents: 2 } });
        if ('why' in j) return inconclusive(j.why);
        const { up } = j;
        if (up.fault === undefined || up.response.body.includes('[DONE]')) return inconclusive(`the upstream's last answer (HTTP ${up.response.status}) was not the cut stream asked of it${j.pair.upstream.length > 1 ? ` (the gateway asked ${j.pair.upstream.length} times)` : ''}`);
        const { res, text } = j.pair;
        const facts = answerFacts(text);
        const done = text.includes('data: [DONE]');
        if (res.status === 200 && (facts.finish_reason !== undefined || done)) {
          return outcomeOf([failure(`the upstream broke the stream off after 2 events; the client got ${[facts.finish_reason !== undefined ? `finish_reason ${JSON.stringify(facts.finish_reason)}` : '', done ? '`data: [DONE]`' : ''].filter(Boolean).join(' and ')}, a finished answer`, res, { ...statusDefect(res), defect: { kind: 'value', what: 'a cut stream ended as finished', path: 'stream' } })]);
        }
        return pass(res.status === 200 ? 'the stream reached the client cut, with no finish' : `the client was told HTTP ${res.status}`, 1);
      },
    }),
  ];
}
