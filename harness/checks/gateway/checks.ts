import { gatewayCheck, isStatus, judged, over, statusPassedOn } from './gatewayCheck.ts';
import type { Spec, TypeExpr } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckRequest } from '../context.ts';
import type { Check } from '../define.ts';
import { inconclusive } from '../support/cooperation.ts';
import { failure, outcomeOf, pass, skip, statusDefect } from '../support/outcome.ts';
import { chat, SAMPLE_TOOLS } from '../support/requests.ts';
import { modelMax } from '../support/build.ts';
import { answerDifferences, answerFacts, errorOf, incidentalChanges, requestDifferences, usageDifferences } from './differences.ts';
import { changeFailure, lastOf, NO_UPSTREAM, through, upstreamBody } from './pair.ts';
import { handOffOnModel } from '../support/handoff.ts';

/**
 * What a gateway changed between its client and the service it fronts (issue 33), judged with the
 * harness as the upstream: every request carries a marker, and each answer is compared with what
 * the upstream received and sent for it. A gateway that offers "the service" is held to what the
 * description says of the service: what the text states or entails is must, what it advises should.
 */

/** A numeric field's value inside its bounds and off its default: the upstream must get it as sent. */
function offDefault(expr: TypeExpr): number | undefined {
  const { minimum: min, maximum: max } = expr as { minimum?: unknown; maximum?: unknown };
  const d = typeof expr.default === 'number' ? expr.default : undefined;
  const lo = typeof min === 'number' ? min : undefined;
  const hi = typeof max === 'number' ? max : undefined;
  if (expr.type !== 'number' && expr.type !== 'integer') return undefined;
  const around = d ?? lo ?? hi;
  if (around === undefined) return undefined;
  const candidates = [lo !== undefined ? (lo + around) / 2 : around - 0.25, hi !== undefined ? (around + hi) / 2 : around + 0.25].map((v) => (expr.type === 'integer' ? Math.round(v) : Math.round(v * 100) / 100));
  return candidates.find((v) => v !== d && (lo === undefined || v >= lo) && (hi === undefined || v <= hi));
}

/**
 * The requests whose every parameter must reach the upstream as sent: the request object's numeric
 * fields off their defaults (from the spec), with stop, max_tokens and logprobs; tools with a
 * tool_choice; JSON output; thinking. Each only with fields the spec's request object has.
 */
export function parameterSets(spec: Spec, ctx: CheckContext): { name: string; request: CheckRequest }[] {
  const fields = spec.objects.chat_completion_request?.fields ?? {};
  const has = (f: string) => fields[f] !== undefined;
  const numeric = Object.fromEntries(Object.entries(fields).flatMap(([name, expr]) => {
    if (name === 'max_tokens' || name === 'top_logprobs') return [];
    const v = offDefault(expr);
    return v === undefined ? [] : [[name, v]];
  }));
  const sampling = { ...numeric, ...(has('stop') ? { stop: ['XYZZY-END'] } : {}), ...(has('max_tokens') ? { max_tokens: 24 } : {}), ...(has('logprobs') ? { logprobs: true } : {}), ...(has('top_logprobs') ? { top_logprobs: 2 } : {}) };
  const sets = [
    { name: 'sampling', request: chat(ctx, sampling) },
    ...(has('tools') ? [{ name: 'tools', request: chat(ctx, { messages: [{ role: 'user', content: 'What is the weather in Paris? Call one of the functions.' }], tools: SAMPLE_TOOLS, ...(has('tool_choice') ? { tool_choice: 'required' } : {}) }) }] : []),
    ...(has('response_format') ? [{ name: 'json', request: chat(ctx, { messages: [{ role: 'user', content: 'Answer in JSON: an object with a key "greeting".' }], response_format: { type: 'json_object' } }) }] : []),
    ...(has('thinking') ? [{ name: 'thinking', request: chat(ctx, { thinking: { type: 'enabled' }, ...(has('reasoning_effort') ? { reasoning_effort: 'high' } : {}), max_tokens: 64 }) }] : []),
  ];
  return sets;
}

/** The answers whose content, reasoning, tool calls, finish reason and logprobs must reach the client as sent. */
function answerSets(spec: Spec, ctx: CheckContext, stream: boolean): { name: string; request: CheckRequest }[] {
  const streamed = (r: CheckRequest): CheckRequest => (stream ? { ...r, body: { ...(r.body as object), stream: true } } : r);
  return parameterSets(spec, ctx).filter((s) => s.name !== 'json').map((s) => ({ name: s.name, request: streamed(s.request) }));
}


/** How long the upstream waits for the client to receive an event before it calls the stream held. */
export const LOCKSTEP_WAIT_MS = 5000;

/**
 * The smallest request, its text naming the case: requests asking the upstream for different
 * answers never share a body, so a replay answers each with its own recording (core/marker.ts).
 */
const asked = (ctx: CheckContext, tag: string, extra: Record<string, unknown> = {}): CheckRequest => chat(ctx, { messages: [{ role: 'user', content: `Say hello in five words. (${tag})` }], ...extra });
const withUpstream = (ctx: CheckContext): string | undefined => (ctx.upstream === undefined ? NO_UPSTREAM : undefined);
/** Faults are the embedded emulator's to answer with; a tap passes the real service's answers. */
const faultsPossible = (ctx: CheckContext): string | undefined => (ctx.upstream !== undefined && !ctx.upstream.faults ? 'the upstream is a tap in front of a real service (--upstream-url): no fault is answered on purpose there' : withUpstream(ctx));

/** Requests the service refuses, each a value one step past its bound (the spec's): `temperature` above its maximum, `max_tokens` above the model's. */
function beyondBounds(spec: Spec, ctx: CheckContext): { name: string; request: CheckRequest }[] {
  const t = spec.objects.chat_completion_request?.fields.temperature as { maximum?: unknown } | undefined;
  const max = modelMax(spec, ctx.model);
  return [
    ...(typeof t?.maximum === 'number' ? [{ name: 'temperature beyond its maximum', request: chat(ctx, { temperature: t.maximum + 1 }) }] : []),
    ...(max ? [{ name: 'max_tokens beyond the model\'s maximum', request: chat(ctx, { max_tokens: max.reject }) }] : []),
  ];
}

/**
 * The request whose refusal the error checks judge: max_tokens beyond the model's maximum, which
 * gateways pass on (Portkey clamps a temperature to its provider's range, and the upstream then answers).
 */
function refusedRequest(spec: Spec, ctx: CheckContext): CheckRequest {
  const all = beyondBounds(spec, ctx);
  return (all.at(-1) ?? { request: chat(ctx, { messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: -1 }) }).request;
}

/** The answer judged: the pair's last upstream answer, or why there is none to judge. */


const grade = {
  entailed: (phrase: string) => ({ severity: 'must' as const, basis: { entailed: phrase } }),
  advised: { severity: 'should' as const, basis: 'advised' as const },
};


export function gatewayChecks(spec: Spec): Check[] {
  return [
    gatewayCheck({
      id: 'gateway.request.parameters-passed-on',
      title: 'every parameter the client sent reaches the upstream with its value (one beyond its bound too), or the gateway refuses the request',
      ...grade.entailed('each field of the request body has the meaning its table gives it (Chat completion request fields): a gateway offering the service that drops or replaces one answers another request'),
      specRefs: ['objects.chat_completion_request'],
      async run(ctx) {
        // A value beyond its bound too: refused (by the gateway or the upstream) or passed on, never clamped.
        const sets = [...parameterSets(spec, ctx), ...beyondBounds(spec, ctx)];
        const results = await Promise.all(sets.map(async ({ name, request }) => {
          const p = await through(ctx, request);
          if ('why' in p) return { name, failures: [], notes: [p.why], compared: false };
          const up = lastOf(p);
          if (up === undefined) return { name, failures: [], notes: [isStatus(p.res.status, 400) ? `refused by the gateway itself (HTTP ${p.res.status}): refusing is not changing` : `answered HTTP ${p.res.status} without asking the upstream`], compared: false };
          const diffs = requestDifferences(p.res.exchange.request.body, upstreamBody(up));
          const model = (upstreamBody(up) as { model?: unknown } | undefined)?.model;
          const added = diffs.filter((d) => d.kind === 'added').map((d) => d.path);
          return {
            name,
            failures: diffs.filter((d) => d.kind !== 'added').map((d) => changeFailure(d, 'request', p.res, up)),
            notes: [`model ${ctx.targetModel} sent upstream as ${JSON.stringify(model)}`, ...(added.length > 0 ? [`the gateway added ${added.join(', ')}`] : [])],
            compared: true,
          };
        }));
        return over(results, 'every parameter reached the upstream as sent');
      },
    }),
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
        const results = await Promise.all(sets.map(async ({ name, request }) => {
          const j = judged(await through(ctx, request));
          if ('why' in j) return { name, failures: [], notes: [j.why], compared: false };
          const up = lastOf(j.pair)!;
          if (up.response.status !== 200 || j.pair.res.status !== 200) return { name, failures: [], notes: [`answered HTTP ${j.pair.res.status} (the upstream ${up.response.status}): no usage to compare`], compared: false };
          const diffs = usageDifferences(j.pair.text, up.response.body);
          return { name, failures: diffs.map((d) => changeFailure(d, 'usage', j.pair.res, up)), notes: [], compared: diffs.length > 0 || answerFacts(up.response.body).read };
        }));
        return over(results, 'the usage numbers reached the client as the upstream reported them');
      },
    }),
    gatewayCheck({
      id: 'gateway.error.status-passed-on',
      title: "the upstream's status reaches the client: a 4xx is never turned into a 5xx or a success, a 429 never into another status",
      ...grade.entailed('the Errors table gives each status its meaning (400 a bad request, 429 a rate limit, 500 a server error): another status tells the client another cause'),
      specRefs: ['errors.statuses'],
      async run(ctx) {
        const why = faultsPossible(ctx);
        const cases: { name: string; request: CheckRequest }[] = [
          { name: 'a request the service refuses', request: { ...refusedRequest(spec, ctx), final: true } },
          ...(why === undefined ? [
            { name: 'an upstream 429', request: { ...asked(ctx, 'status 429'), final: true, upstream: { kind: 'status' as const, status: 429, times: 1 } } },
            { name: 'an upstream 500', request: { ...asked(ctx, 'status 500'), final: true, retry: false, upstream: { kind: 'status' as const, status: 500, times: 1 } } },
          ] : []),
        ];
        const results = await Promise.all(cases.map(async ({ name, request }) => {
          const j = judged(await through(ctx, request));
          if ('why' in j) return { name, failures: [], notes: [j.why], compared: false };
          const up = lastOf(j.pair)!;
          const [got, sent] = [j.pair.res.status, up.response.status];
          // A later answer after the gateway's retry is the one passed on.
          const same = statusPassedOn(got, sent);
          const failures = same ? [] : [failure(`the upstream answered HTTP ${sent}${j.pair.upstream.length > 1 ? ` (its last of ${j.pair.upstream.length} answers)` : ''}, and the client was told HTTP ${got}`, j.pair.res, { defect: { kind: 'status', expected: String(sent), got } })];
          return { name, failures, notes: [`HTTP ${sent} upstream, ${got} at the client, ${j.pair.upstream.length} upstream request(s)`], compared: true };
        }));
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
        const j = judged(await through(ctx, { ...refusedRequest(spec, ctx), final: true }));
        if ('why' in j) return inconclusive(j.why);
        const up = lastOf(j.pair)!;
        if (j.pair.res.status !== up.response.status) return handOffOnModel('gateway.error.status-passed-on', failure(`the client was told HTTP ${j.pair.res.status} where the upstream answered ${up.response.status}, so the error passed on is not the upstream's`, j.pair.res, { defect: { kind: 'changed', path: 'status', change: 'replaced', atUpstream: String(up.response.status), atClient: String(j.pair.res.status), what: `HTTP ${up.response.status} passed on as ${j.pair.res.status}` } }));
        const [told, sent] = [errorOf(j.pair.text), errorOf(up.response.body)];
        if (sent === undefined) return inconclusive(`the upstream's HTTP ${up.response.status} carried no error envelope to compare`);
        const failures = (['type', 'code', 'message'] as const).flatMap((k) => {
          if (sent[k] === undefined) return [];
          if (told?.[k] === sent[k]) return [];
          return [changeFailure(told?.[k] === undefined ? { kind: 'dropped', path: `error.${k}`, upstream: sent[k] } : { kind: 'replaced', path: `error.${k}`, upstream: sent[k], client: told[k] }, 'error', j.pair.res, up)];
        });
        return failures.length > 0 ? outcomeOf(failures) : pass(`HTTP ${up.response.status}: type, code and message as the upstream sent them`, 1);
      },
    }),
    gatewayCheck({
      id: 'gateway.error.retry-after-passed-on',
      title: "an upstream 429's Retry-After reaches the client, or the gateway waits it out before asking again",
      ...grade.advised,
      specRefs: ['errors.retry'],
      async run(ctx) {
        const why = faultsPossible(ctx);
        if (why !== undefined) return skip(why);
        const j = judged(await through(ctx, { ...asked(ctx, 'retry-after 429'), final: true, upstream: { kind: 'status', status: 429, times: 1 } }));
        if ('why' in j) return inconclusive(j.why);
        const [first, second] = j.pair.upstream;
        const wait = Number(first!.response.headers['retry-after']);
        if (first!.response.status !== 429 || !Number.isFinite(wait)) return inconclusive(`the upstream's first answer was HTTP ${first!.response.status}${Number.isFinite(wait) ? '' : ' without Retry-After'}, not the 429 asked of it`);
        const { res } = j.pair;
        if (res.status === 429) {
          const told = Number(res.headers['retry-after']);
          if (!Number.isFinite(told)) return outcomeOf([failure(`the upstream's 429 said Retry-After: ${wait}; the client's 429 carries no Retry-After`, res, { defect: { kind: 'changed', path: 'headers.retry-after', change: 'dropped', atUpstream: String(wait), what: `Retry-After ${wait} dropped from a 429` } })]);
          return told >= wait ? pass(`the 429 reached the client with Retry-After: ${told}`, 1) : outcomeOf([failure(`the upstream said Retry-After: ${wait}; the client was told ${told}`, res, { defect: { kind: 'changed', path: 'headers.retry-after', change: 'replaced', atUpstream: String(wait), atClient: String(told), what: `Retry-After ${wait} shortened to ${told}` } })]);
        }
        if (second === undefined) return handOffOnModel('gateway.error.status-passed-on', failure(`the client was told HTTP ${res.status} for the upstream's 429 without the gateway asking again`, res, { defect: { kind: 'changed', path: 'status', change: 'replaced', atUpstream: '429', atClient: String(res.status), what: `HTTP 429 passed on as ${res.status}` } }));
        const waited = second.at - first!.at;
        // The clock of one process, milliseconds apart: a few are the scheduler's, not the gateway's.
        return waited >= wait * 1000 - 50 ? pass(`the gateway asked again after ${waited} ms, Retry-After being ${wait} s`, 1) : outcomeOf([failure(`the gateway asked the upstream again ${waited} ms after a 429 whose Retry-After said ${wait} s (the retry guidance: read Retry-After first)`, res, { defect: { kind: 'value', what: `retried ${waited} ms after Retry-After: ${wait}`, path: 'retry' } })]);
      },
    }),
    gatewayCheck({
      id: 'gateway.traffic.no-4xx-resent',
      title: 'a request the upstream refused with a 4xx other than 429 is not sent to it again',
      ...grade.advised,
      specRefs: ['errors.retry'],
      async run(ctx) {
        const j = judged(await through(ctx, { ...refusedRequest(spec, ctx), final: true }));
        if ('why' in j) return inconclusive(j.why);
        const refused = j.pair.upstream.filter((e) => isStatus(e.response.status, 400) && e.response.status !== 429);
        if (refused.length === 0) return inconclusive(`the upstream did not refuse the request (HTTP ${j.pair.upstream.map((e) => e.response.status).join(', ')}), so what the gateway does with a refusal cannot be seen`);
        const n = j.pair.upstream.length;
        return n > 1
          ? outcomeOf([failure(`the upstream answered HTTP ${refused[0]!.response.status} and the gateway sent the same request ${n} times (the retry guidance names 429, 503 and 500 only); each counts against the rate limit`, j.pair.res, { defect: { kind: 'value', what: `a ${refused[0]!.response.status} sent upstream ${n} times`, path: 'traffic' } })])
          : pass(`HTTP ${refused[0]!.response.status}, sent upstream once`, 1);
      },
    }),
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
        const j = judged(await through(ctx, { ...asked(ctx, 'lockstep', { stream: true, max_tokens: 16 }), upstream: { kind: 'lockstep', waitMs: LOCKSTEP_WAIT_MS } }));
        if ('why' in j) return inconclusive(j.why);
        const up = lastOf(j.pair)!;
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
        const j = judged(await through(ctx, { ...asked(ctx, 'cut', { stream: true, max_tokens: 32 }), final: true, retry: false, upstream: { kind: 'cut', afterEvents: 2 } }));
        if ('why' in j) return inconclusive(j.why);
        const up = lastOf(j.pair)!;
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

/** Content, reasoning, tool calls, finish reason and logprobs over the answer sets, streamed or not. */
async function answersPassedOn(spec: Spec, ctx: CheckContext, stream: boolean): Promise<CheckOutcome> {
  const why = withUpstream(ctx);
  if (why !== undefined) return skip(why);
  const results = await Promise.all(answerSets(spec, ctx, stream).map(async ({ name, request }) => {
    const j = judged(await through(ctx, request));
    if ('why' in j) return { name, failures: [], notes: [j.why], compared: false };
    const up = lastOf(j.pair)!;
    if (up.response.status !== 200 || j.pair.res.status !== 200) return { name, failures: [], notes: [`answered HTTP ${j.pair.res.status} (the upstream ${up.response.status}): no answer to compare`], compared: false };
    if (stream && !up.response.body.includes('[DONE]')) return { name, failures: [], notes: ['the upstream stream did not end'], compared: false };
    const diffs = answerDifferences(j.pair.text, up.response.body);
    const incidental = incidentalChanges({ text: j.pair.text, headers: j.pair.res.headers }, { text: up.response.body, headers: up.response.headers });
    return { name, failures: diffs.map((d) => changeFailure(d, 'answer', j.pair.res, up)), notes: incidental.length > 0 ? [`changed, carrying no meaning: ${incidental.join('; ')}`] : [], compared: true };
  }));
  return over(results, `the ${stream ? 'streamed ' : ''}answer reached the client as the upstream sent it`);
}
