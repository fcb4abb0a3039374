import { deepEqual } from '#harness/core/deepEqual.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext } from '../context.ts';
import { gradeOf, type Check } from '../define.ts';
import { behaviourOf } from '../support/behaviour.ts';
import { inconclusive } from '../support/cooperation.ts';
import { beyondBounds, parameterSets, type Case } from './chatCases.ts';
import { requestDifferences, type Difference } from './differences.ts';
import { gatewayCheck, grade, isStatus } from './gatewayCheck.ts';
import { messagesParameterSets, stopSets } from './messagesCases.ts';
import { bodies, messagesPair } from './messagesPair.ts';
import { eachPair, noted, over, type PairResult } from './overPairs.ts';
import { changeFailure, lastOf, NO_UPSTREAM, through, upstreamBody } from './pair.ts';
import { IDENTITY_REQUEST_FIELDS, REQUEST_FIELDS, type RequestField } from './translation.ts';

type Json = Record<string, unknown>;

/** Every parameter the client sent reaches the upstream as sent (the chat format's checks). */
export function parameterChecks(spec: Spec): Check[] {
  return [
    gatewayCheck({
      id: 'gateway.request.parameters-passed-on',
      title: 'every parameter the client sent reaches the upstream with its value (one beyond its bound too), or the gateway refuses the request',
      ...grade.entailed('each field of the request body has the meaning its table gives it (Chat completion request fields): a gateway offering the service that drops or replaces one answers another request'),
      specRefs: ['objects.chat_completion_request'],
      async run(ctx) {
        // A value beyond its bound too: refused (by the gateway or the upstream) or passed on, never clamped.
        const sets = [...parameterSets(spec, ctx), ...beyondBounds(spec, ctx)];
        const results = await eachPair(sets, (request) => through(ctx, request), (p) => {
          const up = lastOf(p);
          if (up === undefined) return noted(isStatus(p.res.status, 400) ? `refused by the gateway itself (HTTP ${p.res.status}): refusing is not changing` : `answered HTTP ${p.res.status} without asking the upstream`);
          const diffs = requestDifferences(p.res.exchange.request.body, upstreamBody(up));
          const model = (upstreamBody(up) as { model?: unknown } | undefined)?.model;
          const added = diffs.filter((d) => d.kind === 'added').map((d) => d.path);
          return {
            failures: diffs.filter((d) => d.kind !== 'added').map((d) => changeFailure(d, 'request', p.res, up)),
            notes: [`model ${ctx.targetModel} sent upstream as ${JSON.stringify(model)}`, ...(added.length > 0 ? [`the gateway added ${added.join(', ')}`] : [])],
            compared: true,
          };
        });
        return over(results, 'every parameter reached the upstream as sent');
      },
    }),
  ];
}

/** A messages-format request's parameters reach the upstream as the chat values they mean, through the table (translation.ts). */
export function messagesParameterChecks(spec: Spec): Check[] {
  const request = behaviourOf(spec.messages_format, 'translated-request', 'messages_format');
  return [
    gatewayCheck({
      id: 'gateway.messages.max-tokens-passed-on',
      title: 'a messages-format request\'s `max_tokens` reaches the upstream with its value',
      severity: 'must',
      basis: { entailed: 'the messages-format body carries `model`, `max_tokens` and `messages` (Messages-format endpoint), and `max_tokens` has the meaning the request table gives it: a gateway that drops or changes it asks the upstream for another length of answer' },
      specRefs: ['objects.messages_request', 'messages_format.translated-request'],
      async run(ctx) {
        if (ctx.upstream === undefined) return inconclusive(NO_UPSTREAM);
        const params = messagesParameterSets(spec, ctx);
        const sets = [...params, ...stopSets(ctx).filter((s) => s.request.upstream === undefined && !params.some((p) => p.name === s.name))];
        return over(await requestCompared(ctx, sets, (f) => f.messages === 'max_tokens'), '`max_tokens` reached the upstream as sent');
      },
    }),
    gatewayCheck({
      id: 'gateway.messages.parameters-translated',
      title: 'a messages-format request\'s stop_sequences, temperature, top_p, thinking, tools and tool_choice reach the upstream as the chat values they mean',
      ...gradeOf(request),
      specRefs: ['messages_format.translated-request', 'objects.chat_completion_request'],
      async run(ctx) {
        if (ctx.upstream === undefined) return inconclusive(NO_UPSTREAM);
        return over(await requestCompared(ctx, messagesParameterSets(spec, ctx), (f) => f.messages !== 'max_tokens'), 'every parameter reached the upstream as the table writes it');
      },
    }),
  ];
}

/** Each field of `fields` the client sent that did not reach the upstream as the table says it must. */
function fieldDifferences(fields: readonly RequestField[], client: Json, upstream: Json): Difference[] {
  return fields.flatMap((f): Difference[] => {
    const sent = client[f.messages];
    if (sent === undefined) return [];
    const expected = f.translate ? f.translate(sent) : sent;
    const got = upstream[f.chat];
    const path = f.messages === f.chat ? f.messages : `${f.messages} (as ${f.chat})`;
    if (got === undefined) return [{ kind: 'dropped', path, client: sent }];
    return (f.same ? f.same(expected, got) : deepEqual(expected, got)) ? [] : [{ kind: 'replaced', path, client: sent, upstream: got }];
  });
}

/** The messages-format request fields compared over `sets`: each carried or a failure with both values. */
function requestCompared(ctx: CheckContext, sets: readonly Case[], pick: (f: RequestField) => boolean): Promise<PairResult[]> {
  return eachPair(sets, (request) => messagesPair(ctx, request), (j) => {
    const { client, upstream } = bodies(j);
    const fields = (j.format === 'chat' ? REQUEST_FIELDS : IDENTITY_REQUEST_FIELDS).filter(pick);
    const diffs = fieldDifferences(fields, client, upstream);
    const extra = Object.keys(upstream).filter((k) => !(k in client) && k !== 'model' && !fields.some((f) => f.chat === k));
    const evidence = `; the client sent ${JSON.stringify(client).slice(0, 400)}; the upstream got ${JSON.stringify(upstream).slice(0, 400)}`;
    return { failures: diffs.map((d) => { const f = changeFailure(d, 'request', j.pair.res, j.up); return { ...f, message: `${f.message}${evidence}` }; }), notes: [`asked upstream in the ${j.format} format${extra.length > 0 ? `, with ${extra.sort().join(', ')} of the gateway's` : ''}`], compared: true };
  });
}
