import type { Failure } from '#harness/core/outcome.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { Check } from '../define.ts';
import { inconclusive } from '../support/cooperation.ts';
import { handOffOnModel } from '../support/handoff.ts';
import { failure, outcomeOf, pass } from '../support/outcome.ts';
import { asked, refusedRequest, type Case } from './chatCases.ts';
import { errorOf } from './differences.ts';
import { faultsPossible, gatewayCheck, grade, isStatus, statusPassedOn } from './gatewayCheck.ts';
import { ask, refusals } from './messagesCases.ts';
import { messagesPair, withBodies, type MessagesJudged } from './messagesPair.ts';
import { eachPair, over, type Judgement } from './overPairs.ts';
import { changeFailure, judgedThrough, NO_UPSTREAM, type Judged } from './pair.ts';
import { ERROR_FIELDS } from './translation.ts';

/** An upstream's error reaches the client: its status, and the words of its envelope (the chat format's checks). */
export function errorChecks(spec: Spec): Check[] {
  return [
    gatewayCheck({
      id: 'gateway.error.status-passed-on',
      title: "the upstream's status reaches the client: a 4xx is never turned into a 5xx or a success, a 429 never into another status",
      ...grade.entailed('the Errors table gives each status its meaning (400 a bad request, 429 a rate limit, 500 a server error): another status tells the client another cause'),
      specRefs: ['errors.statuses'],
      async run(ctx) {
        const why = faultsPossible(ctx);
        const cases: Case[] = [
          { name: 'a request the service refuses', request: refusedRequest(spec, ctx) },
          ...(why === undefined ? [
            { name: 'an upstream 429', request: { ...asked(ctx, 'status 429'), final: true, upstream: { kind: 'status' as const, status: 429, times: 1 } } },
            { name: 'an upstream 500', request: { ...asked(ctx, 'status 500'), final: true, retry: false, upstream: { kind: 'status' as const, status: 500, times: 1 } } },
          ] : []),
        ];
        const results = await eachPair(cases, (request) => judgedThrough(ctx, request), (j) => {
          const n = j.pair.upstream.length;
          return statusJudged(j, (sent, got) => `the upstream answered HTTP ${sent}${n > 1 ? ` (its last of ${n} answers)` : ''}, and the client was told HTTP ${got}`, `, ${n} upstream request(s)`);
        });
        return over(results, 'each status reached the client');
      },
    }),
    gatewayCheck({
      id: 'gateway.error.body-passed-on',
      title: "an upstream error's type, code and message reach the client as the upstream worded them",
      severity: 'should',
      basis: { entailed: 'Error responses carry a JSON body with an `error` object holding `message` (string) and `type` (string), and in the shown sample also `code`; the text names no consequence of a gateway rewording them, so should' },
      specRefs: ['errors.envelope'],
      async run(ctx) {
        const j = await judgedThrough(ctx, refusedRequest(spec, ctx));
        if ('why' in j) return inconclusive(j.why);
        const { pair, up } = j;
        if (pair.res.status !== up.response.status) return handOffOnModel('gateway.error.status-passed-on', failure(`the client was told HTTP ${pair.res.status} where the upstream answered ${up.response.status}, so the error passed on is not the upstream's`, pair.res, { defect: { kind: 'changed', path: 'status', change: 'replaced', atUpstream: String(up.response.status), atClient: String(pair.res.status), what: `HTTP ${up.response.status} passed on as ${pair.res.status}` } }));
        const [told, sent] = [errorOf(pair.text), errorOf(up.response.body)];
        if (sent === undefined) return inconclusive(`the upstream's HTTP ${up.response.status} carried no error envelope to compare`);
        const failures = (['type', 'code', 'message'] as const).flatMap((k) => errorFieldChanged(`error.${k}`, sent[k], told?.[k], j));
        return failures.length > 0 ? outcomeOf(failures) : pass(`HTTP ${up.response.status}: type, code and message as the upstream sent them`, 1);
      },
    }),
  ];
}

/** An upstream's error reaches the client of a messages-format request: its status, and its words in the format's envelope. */
export function messagesErrorChecks(spec: Spec): Check[] {
  return [
    gatewayCheck({
      id: 'gateway.messages.error-status-passed-on',
      title: 'the upstream\'s status reaches the client of a messages-format request: a 4xx never a 5xx or a success, a 429 never another status',
      severity: 'must',
      basis: { entailed: 'the Errors table gives each status its meaning (400 a bad request, 429 a rate limit, 500 a server error), for this format as for the other ("Error responses carry a JSON body...", said of every error): another status tells the client another cause' },
      specRefs: ['errors.statuses', 'messages_format.error-envelope'],
      async run(ctx) {
        if (ctx.upstream === undefined) return inconclusive(NO_UPSTREAM);
        const cases = [
          ...refusals(spec, ctx),
          ...(ctx.upstream.faults ? [{ name: 'an upstream 429', request: { ...ask(ctx, 'Say hello in five words. (status 429)'), final: true, upstream: { kind: 'status' as const, status: 429, times: 1 } } }] : []),
        ];
        const results = await eachPair(cases, (request) => messagesPair(ctx, request), (j) =>
          statusJudged(j, (sent, got) => `the upstream answered HTTP ${sent} ${j.up.response.body.slice(0, 300)}; the client was told HTTP ${got} ${j.pair.text.slice(0, 300)}`));
        return over(results, 'each status reached the client');
      },
    }),
    gatewayCheck({
      id: 'gateway.messages.error-body-passed-on',
      title: 'an upstream error\'s type and message reach the client of a messages-format request in the error envelope, as the upstream worded them',
      severity: 'should',
      basis: { entailed: 'Error responses carry a JSON body with an `error` object holding `message` and `type` (said of every error of the service); the text names no consequence of a gateway rewording them, so should' },
      specRefs: ['errors.envelope', 'messages_format.error-envelope'],
      async run(ctx) {
        if (ctx.upstream === undefined) return inconclusive(NO_UPSTREAM);
        const tried = await Promise.all(refusals(spec, ctx).map(async ({ name, request }) => ({ name, j: await messagesPair(ctx, request) })));
        const refusedUpstream = tried.find(({ j }) => !('why' in j) && isStatus(j.up.response.status, 400));
        if (refusedUpstream === undefined) return inconclusive(`no upstream refusal to pass on: ${tried.map(({ name, j }) => `${name}: ${'why' in j ? j.why : `HTTP ${j.up.response.status} upstream`}`).join('; ')}`);
        const j = refusedUpstream.j as MessagesJudged;
        const [told, sent] = [errorOf(j.pair.text), errorOf(j.up.response.body)];
        if (sent === undefined) return inconclusive(`the upstream's HTTP ${j.up.response.status} carried no error envelope to compare`);
        const failures = ERROR_FIELDS.flatMap(({ chat, messages }) =>
          errorFieldChanged(`error.${messages}`, sent[chat as 'type' | 'message'], told?.[(j.format === 'chat' ? messages : chat) as 'type' | 'message'], j).map((f) => withBodies(f, j)));
        return failures.length > 0 ? outcomeOf(failures) : pass(`HTTP ${j.up.response.status}: the error's type and message as the upstream sent them`, 1);
      },
    }),
  ];
}

/**
 * The client's status against the upstream's last (a later answer after the gateway's retry is the
 * one passed on): `said` words a failure from both, `more` adds to the note.
 */
function statusJudged({ pair, up }: Judged, said: (sent: number, got: number) => string, more = ''): Judgement {
  const [got, sent] = [pair.res.status, up.response.status];
  const failures = statusPassedOn(got, sent) ? [] : [failure(said(sent, got), pair.res, { defect: { kind: 'status', expected: String(sent), got } })];
  return { failures, notes: [`HTTP ${sent} upstream, ${got} at the client${more}`], compared: true };
}

/** An error field the upstream sent that the client was not told as sent (dropped or replaced); none where it was. */
function errorFieldChanged(path: string, theirs: unknown, ours: unknown, { pair, up }: Judged): Failure[] {
  if (theirs === undefined || ours === theirs) return [];
  return [changeFailure(ours === undefined ? { kind: 'dropped', path, upstream: theirs } : { kind: 'replaced', path, upstream: theirs, client: ours }, 'error', pair.res, up)];
}
