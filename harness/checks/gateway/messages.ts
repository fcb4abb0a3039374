import { deepEqual } from '#harness/core/deepEqual.ts';
import { gatewayCheck, isStatus, judged, over, statusPassedOn, type PairResult } from './gatewayCheck.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { foldSse } from '#harness/core/sseFold.ts';
import { unmarked } from '#harness/core/marker.ts';
import type { Failure } from '#harness/core/outcome.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckRequest, CheckResponse } from '../context.ts';
import { gradeOf, type Check } from '../define.ts';
import { behaviourOf } from '../support/behaviour.ts';
import { modelMax, UNKNOWN_MODEL } from '../support/build.ts';
import { inconclusive } from '../support/cooperation.ts';
import { failure, outcomeOf, pass } from '../support/outcome.ts';
import { messagesRequest, ROOM_TOKENS, SAMPLE_TOOLS } from '../support/requests.ts';
import { answerFacts, errorOf } from './differences.ts';
import { messagesFacts, type MessagesFacts } from './messagesFacts.ts';
import { changeFailure, lastOf, NO_UPSTREAM, through, upstreamBody, type Pair } from './pair.ts';
import { ERROR_FIELDS, IDENTITY_REQUEST_FIELDS, REQUEST_FIELDS, SEQUENCE_STOP, STOP_REASONS, upstreamFormat, USAGE, type RequestField } from './translation.ts';
import type { Difference } from './differences.ts';

/**
 * What a gateway changes of a messages-format request it answers from a chat-completions upstream
 * (issue 49, item 3), judged as the chat gateway checks are (checks.ts): each request marked, what
 * the client sent against what reached the upstream, what the upstream answered against what the
 * client got, through the one table of the two formats (translation.ts). A gateway that passes the
 * format on unchanged is judged by the same table read as the identity.
 *
 * The strengths are the description's: of this format it shows `model`, `max_tokens` and `messages`
 * and the error envelope, so `max_tokens` and an error's status are must, an error's words should
 * (as for the chat format), and every other parameter, stop reason and count is the format's
 * convention (messages-format.yaml translated-request, translated-answer): advisory.
 */

type Json = Record<string, unknown>;

/** The chat format's sample tools in the messages format's shape (`input_schema`). */
const TOOLS = SAMPLE_TOOLS.map((t) => ({ name: t.function.name, description: t.function.description, input_schema: t.function.parameters }));
const WEATHER = { role: 'user', content: 'What is the weather in Paris? Call one of the functions.' };
/** A stop sequence the answer never reaches: sent to see it carried. */
const UNREACHED_STOP = 'XYZZY-END';
/** A prompt the emulator (any model told to repeat) says back, with the stop sequence inside it. */
const STOP_WORD = 'HALT';
/** Long enough to be cached (the description: content under 64 tokens never is), the same in both requests. */
const CACHED_SYSTEM = `You are a terse assistant. ${Array.from({ length: 40 }, (_, i) => `Rule ${i + 1}: answer briefly and plainly, in the user's language.`).join(' ')}`;

const ask = (ctx: CheckContext, content: string, extra: Json = {}): CheckRequest => messagesRequest(ctx, { messages: [{ role: 'user', content }], ...extra });

/** A numeric field of the chat request's table off its default, inside its bounds: the messages format names the same parameters. */
function offDefault(spec: Spec, field: string, fallback: number): number {
  const f = spec.objects.chat_completion_request?.fields[field] as { default?: unknown; maximum?: unknown } | undefined;
  const d = typeof f?.default === 'number' ? f.default : undefined;
  const v = d === undefined ? fallback : d / 2;
  return typeof f?.maximum === 'number' && v > f.maximum ? f.maximum / 2 : v;
}

const namedTool = (ctx: CheckContext): CheckRequest => messagesRequest(ctx, { messages: [WEATHER], tools: TOOLS, tool_choice: { type: 'tool', name: TOOLS[0]!.name }, max_tokens: ROOM_TOKENS });

/** The requests whose parameters must reach the upstream, by name. */
function parameterSets(spec: Spec, ctx: CheckContext): { name: string; request: CheckRequest }[] {
  return [
    { name: 'sampling', request: ask(ctx, 'Say hello in five words. (sampling)', { max_tokens: 24, stop_sequences: [UNREACHED_STOP], temperature: offDefault(spec, 'temperature', 0.5), top_p: offDefault(spec, 'top_p', 0.5) }) },
    // The format's convention asks for a budget below max_tokens; the service's `thinking` has none to carry it.
    { name: 'thinking', request: ask(ctx, 'Why is the sky blue? (thinking)', { thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 1280 }) },
    { name: 'a named tool', request: namedTool(ctx) },
    { name: 'any tool', request: messagesRequest(ctx, { messages: [{ ...WEATHER, content: `${WEATHER.content} (any)` }], tools: TOOLS, tool_choice: { type: 'any' }, max_tokens: ROOM_TOKENS }) },
  ];
}

/** The requests whose stop reason the check reads: each ends for one cause. */
function stopSets(ctx: CheckContext): { name: string; request: CheckRequest; expects: string }[] {
  const faults = ctx.upstream?.faults === true;
  return [
    { name: 'a stream', request: ask(ctx, 'Repeat: alpha beta gamma', { stream: true, max_tokens: 16 }), expects: 'stop' },
    { name: 'a stop sequence', request: ask(ctx, `Repeat: one two ${STOP_WORD} three four`, { stop_sequences: [STOP_WORD] }), expects: 'stop' },
    { name: 'max_tokens reached', request: ask(ctx, 'Repeat: one two three four five six seven eight nine ten eleven twelve', { max_tokens: 4 }), expects: 'length' },
    { name: 'a named tool', request: namedTool(ctx), expects: 'tool_calls' },
    ...(faults ? [{ name: 'content_filter', request: { ...ask(ctx, 'Say hello in five words. (content_filter)'), upstream: { kind: 'finish' as const, finishReason: 'content_filter', stopReason: STOP_REASONS.content_filter!.stopReasons[0]! } }, expects: 'content_filter' }] : []),
  ];
}

/**
 * Requests the service refuses, in the order the error checks take them: `max_tokens` one past the
 * model's maximum (the spec's: only the service knows it, so a gateway passes it on), then a model id
 * it does not have (which a gateway translating for one model may route to its own default).
 */
function refusals(spec: Spec, ctx: CheckContext): { name: string; request: CheckRequest }[] {
  const max = modelMax(spec, ctx.model);
  return [
    ...(max ? [{ name: "max_tokens beyond the model's maximum", request: { ...ask(ctx, 'Say hello. (refused)', { max_tokens: max.reject }), final: true } }] : []),
    { name: 'an unknown model', request: { ...ask(ctx, 'Say hello. (unknown model)', { model: UNKNOWN_MODEL }), final: true } },
  ];
}

/** One pair through the gateway, with its last upstream exchange and the format it was asked in, or why none is judged. */
async function judgedPair(ctx: CheckContext, request: CheckRequest): Promise<{ pair: Pair; format: 'chat' | 'messages' } | { why: string }> {
  const j = judged(await through(ctx, request));
  if ('why' in j) return j;
  const p = j.pair;
  const up = lastOf(p)!;
  const format = upstreamFormat(up.request.path);
  if (format === undefined) return { why: `the gateway asked the upstream at ${up.request.path}, neither the chat-completions nor the messages path` };
  return { pair: p, format };
}

const skipped = (name: string, why: string): PairResult => ({ name, failures: [], notes: [why], compared: false });


/** The client's body and what the upstream got, unmarked. */
const bodies = (p: Pair): { client: Json; upstream: Json } => {
  const [c, u] = [unmarked(p.res.exchange.request.body), unmarked(upstreamBody(lastOf(p)!))];
  return { client: isRecord(c) ? c : {}, upstream: isRecord(u) ? u : {} };
};

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

/** The request fields compared over `sets`: each carried or a failure with both values. */
async function requestCompared(ctx: CheckContext, sets: { name: string; request: CheckRequest }[], pick: (f: RequestField) => boolean): Promise<PairResult[]> {
  return Promise.all(sets.map(async ({ name, request }): Promise<PairResult> => {
    const j = await judgedPair(ctx, request);
    if ('why' in j) return skipped(name, j.why);
    const { client, upstream } = bodies(j.pair);
    const fields = (j.format === 'chat' ? REQUEST_FIELDS : IDENTITY_REQUEST_FIELDS).filter(pick);
    const up = lastOf(j.pair)!;
    const diffs = fieldDifferences(fields, client, upstream);
    const extra = Object.keys(upstream).filter((k) => !(k in client) && k !== 'model' && !fields.some((f) => f.chat === k));
    const evidence = `; the client sent ${JSON.stringify(client).slice(0, 400)}; the upstream got ${JSON.stringify(upstream).slice(0, 400)}`;
    return { name, failures: diffs.map((d) => { const f = changeFailure(d, 'request', j.pair.res, up); return { ...f, message: `${f.message}${evidence}` }; }), notes: [`asked upstream in the ${j.format} format${extra.length > 0 ? `, with ${extra.sort().join(', ')} of the gateway's` : ''}`], compared: true };
  }));
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



export function gatewayMessagesChecks(spec: Spec): Check[] {
  const request = behaviourOf(spec.messages_format, 'translated-request', 'messages_format');
  const answer = behaviourOf(spec.messages_format, 'translated-answer', 'messages_format');
  return [
    gatewayCheck({
      id: 'gateway.messages.max-tokens-passed-on',
      title: 'a messages-format request\'s `max_tokens` reaches the upstream with its value',
      severity: 'must',
      basis: { entailed: 'the messages-format body carries `model`, `max_tokens` and `messages` (Messages-format endpoint), and `max_tokens` has the meaning the request table gives it: a gateway that drops or changes it asks the upstream for another length of answer' },
      specRefs: ['objects.messages_request', 'messages_format.translated-request'],
      async run(ctx) {
        if (ctx.upstream === undefined) return inconclusive(NO_UPSTREAM);
        const params = parameterSets(spec, ctx);
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
        return over(await requestCompared(ctx, parameterSets(spec, ctx), (f) => f.messages !== 'max_tokens'), 'every parameter reached the upstream as the table writes it');
      },
    }),
    gatewayCheck({
      id: 'gateway.messages.stop-reason-mapped',
      title: 'the upstream\'s finish reason reaches the client as the stop reason it means (`length` as max_tokens, `tool_calls` as tool_use, `content_filter` apart), streamed and not',
      ...gradeOf(answer),
      specRefs: ['messages_format.translated-answer', 'messages_format.response-shape', 'finish_reasons'],
      async run(ctx) {
        if (ctx.upstream === undefined) return inconclusive(NO_UPSTREAM);
        const results = await Promise.all(stopSets(ctx).map(async ({ name, request }): Promise<PairResult> => {
          const j = await judgedPair(ctx, request);
          if ('why' in j) return skipped(name, j.why);
          const up = lastOf(j.pair)!;
          if (j.pair.res.status !== 200 || up.response.status !== 200) return skipped(name, `answered HTTP ${j.pair.res.status} (the upstream ${up.response.status}): no stop reason to compare`);
          const d = stopDifference(j.format, bodies(j.pair).client, messagesFacts(j.pair.text), up.response.body);
          if (d === undefined) return skipped(name, 'the upstream\'s answer gave no finish reason');
          return { name, failures: d.failure ? [reasonFailure(d.failure, j.pair.res, up.response.body, j.pair.text)] : [], notes: d.note ? [d.note] : [], compared: d.failure !== undefined || !d.note.includes('not judged') };
        }));
        return over(results, 'each finish reason reached the client as the stop reason it means');
      },
    }),
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
        const results = await Promise.all(sets.map(async ({ name, request }): Promise<PairResult> => {
          const j = await judgedPair(ctx, request);
          if ('why' in j) return skipped(name, j.why);
          const up = lastOf(j.pair)!;
          if (j.pair.res.status !== 200 || up.response.status !== 200) return skipped(name, `answered HTTP ${j.pair.res.status} (the upstream ${up.response.status}): no usage to compare`);
          const judged = usageFailures(j.format, messagesFacts(j.pair.text), up.response.body);
          const hits = answerFacts(up.response.body).usage?.prompt_cache_hit_tokens;
          return { name, failures: judged.failures.map((f) => usageFailure(f, j.pair.res, up.response.body, j.pair.text)), notes: judged.compared ? (hits ? [`${hits} tokens read from the cache upstream`] : []) : ["the upstream's answer carried no usage"], compared: judged.compared };
        }));
        return over(results, 'the usage reached the client as the upstream reported it');
      },
    }),
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
        const results = await Promise.all(cases.map(async ({ name, request }): Promise<PairResult> => {
          const j = await judgedPair(ctx, request);
          if ('why' in j) return skipped(name, j.why);
          const up = lastOf(j.pair)!;
          const [got, sent] = [j.pair.res.status, up.response.status];
          const same = statusPassedOn(got, sent);
          const failures = same ? [] : [failure(`the upstream answered HTTP ${sent} ${up.response.body.slice(0, 300)}; the client was told HTTP ${got} ${j.pair.text.slice(0, 300)}`, j.pair.res, { defect: { kind: 'status', expected: String(sent), got } })];
          return { name, failures, notes: [`HTTP ${sent} upstream, ${got} at the client`], compared: true };
        }));
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
        const tried = await Promise.all(refusals(spec, ctx).map(async ({ name, request }) => ({ name, j: await judgedPair(ctx, request) })));
        const refusedUpstream = tried.find(({ j }) => !('why' in j) && isStatus(lastOf(j.pair)!.response.status, 400));
        if (refusedUpstream === undefined) return inconclusive(`no upstream refusal to pass on: ${tried.map(({ name, j }) => `${name}: ${'why' in j ? j.why : `HTTP ${lastOf(j.pair)!.response.status} upstream`}`).join('; ')}`);
        const j = refusedUpstream.j as { pair: Pair; format: 'chat' | 'messages' };
        const up = lastOf(j.pair)!;
        const [told, sent] = [errorOf(j.pair.text), errorOf(up.response.body)];
        if (sent === undefined) return inconclusive(`the upstream's HTTP ${up.response.status} carried no error envelope to compare`);
        const failures = ERROR_FIELDS.flatMap(({ chat, messages }) => {
          const theirs = sent[chat as 'type' | 'message'];
          const ours = told?.[(j.format === 'chat' ? messages : chat) as 'type' | 'message'];
          if (theirs === undefined || ours === theirs) return [];
          return [withBodies(changeFailure(ours === undefined ? { kind: 'dropped', path: `error.${messages}`, upstream: theirs } : { kind: 'replaced', path: `error.${messages}`, upstream: theirs, client: ours }, 'error', j.pair.res, up), up.response.body, j.pair.text)];
        });
        return failures.length > 0 ? outcomeOf(failures) : pass(`HTTP ${up.response.status}: the error's type and message as the upstream sent them`, 1);
      },
    }),
  ];
}

/**
 * An answer as its evidence shows it: a body cut to 400 characters; a stream, its events that say
 * how it ended or what it counted (the chat stream's usage and finish, message_start and message_delta).
 */
function excerpt(text: string): string {
  const events = foldSse(text).events.flatMap((e) => (e.kind === 'data' && /"usage"|"finish_reason":"|"stop_reason":"|message_start|message_delta/.test(e.data) ? [`${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}`] : []));
  if (events.length === 0) return text.slice(0, 400);
  return events.map((e) => (e.length > 600 ? `${e.slice(0, 597)}...` : e)).join('\n');
}

/** Both answers, as evidence. */
const both = (upstream: string, client: string) => `; the upstream's answer: ${excerpt(upstream)}; the client's: ${excerpt(client)}`;

const withBodies = (f: Failure, upstream: string, client: string): Failure => ({ ...f, message: `${f.message}${both(upstream, client)}` });

function reasonFailure(what: string, res: CheckResponse, upstream: string, client: string): Failure {
  return failure(`${what}${both(upstream, client)}`, res, { path: '/stop_reason', defect: { kind: 'value', what, path: 'stop_reason' } });
}

function usageFailure(what: string, res: CheckResponse, upstream: string, client: string): Failure {
  return failure(`${what}${both(upstream, client)}`, res, { path: '/usage', defect: { kind: 'value', what, path: 'usage' } });
}
