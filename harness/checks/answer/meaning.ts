import { dateHeaderMs } from '#harness/core/clock.ts';
import type { Failure } from '#harness/core/outcome.ts';
import type { Meaning, Model, Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { currentModels, defineCheck, gradeOf, supportsTools, type Check } from '../define.ts';
import { get, isObject, type Json } from '../support/body.ts';
import { SAMPLE_TOOLS, toolCallRequest } from '../support/requests.ts';
import { inconclusive } from '../support/cooperation.ts';
import { handOffOnModel, ownerFor, REQUIRED_FORCES_CALL, shapeHandOff } from '../support/handoff.ts';
import { failure, outcomeOf, shown, skip } from '../support/outcome.ts';
import { toolCallCut } from '../support/premises.ts';
import { plainCompletion, sample, streamedCompletion, streamedToolCall } from '../support/samples.ts';
import { brokeOff, type ReadStream } from '../support/stream.ts';

/** What one answer shows, from a body or from a stream (its first and last chunk, its assembled calls). */
export interface Seen {
  res: CheckResponse;
  where: 'the completion' | 'the stream';
  /** Objects that carry `created` and `model`: the body, or the stream's first and last chunk. */
  carriers: Json[];
  toolNames: string[];
  /** Set where the answer was cut off by max_tokens: the tool-call premise (support/premises.ts), failed. */
  cut?: CheckOutcome;
}

type Source = (ctx: CheckContext) => Promise<Seen | { outcome: CheckOutcome }>;

export function fromBody(res: CheckResponse, body: unknown, unreadable?: string): Seen | { outcome: CheckOutcome } {
  if (res.status !== 200 || !isObject(body)) return { outcome: skip(`the request was answered HTTP ${res.status}${unreadable ? ` (${unreadable})` : ''}, so there is no completion to judge`, 'inconclusive') };
  const calls = get(body, 'choices', 0, 'message', 'tool_calls');
  const toolNames = Array.isArray(calls) ? calls.map((c) => get(c, 'function', 'name')).filter((n): n is string => typeof n === 'string') : [];
  const cut = toolCallCut(get(body, 'choices', 0, 'finish_reason'), get(body, 'usage', 'completion_tokens'));
  return { res, where: 'the completion', carriers: [body], toolNames, ...(cut ? { cut } : {}) };
}

export function fromStream(res: CheckResponse, stream: ReadStream | undefined): Seen | { outcome: CheckOutcome } {
  if (res.status !== 200 || !stream) return { outcome: skip(`the streamed request was answered HTTP ${res.status}, so there is no stream to judge`, 'inconclusive') };
  if (stream.error !== undefined) return { outcome: outcomeOf([failure(brokeOff(stream), res)]) };
  const carriers = [stream.first, stream.last, stream.usageCarrier?.body].filter((c): c is Json => c !== undefined);
  const cut = toolCallCut(stream.message.finishReason, get(stream.message.usage, 'completion_tokens'));
  return { res, where: 'the stream', carriers, toolNames: stream.message.toolCalls.map((c) => c.name.text), ...(cut ? { cut } : {}) };
}

const SOURCES: Record<'body' | 'stream' | 'tool-body' | 'tool-stream', Source> = {
  body: async (ctx) => {
    const { res, body, unreadable } = await plainCompletion(ctx);
    return fromBody(res, body, unreadable);
  },
  stream: async (ctx) => {
    const { res, stream } = await streamedCompletion(ctx);
    return fromStream(res, stream);
  },
  'tool-body': async (ctx) => {
    const { res, body, unreadable } = await sample(ctx, toolCallRequest(ctx, false));
    return fromBody(res, body, unreadable);
  },
  'tool-stream': async (ctx) => {
    // The tool-call stream the clients are handed too (client/openai.ts): one answer for both.
    const { res, stream } = await streamedToolCall(ctx);
    return fromStream(res, stream);
  },
};

export type Judge = (seen: Seen, ctx: CheckContext, meaning: Meaning) => Promise<CheckOutcome>;

/**
 * The server's clock when it answered: its Date header, else the run's reference time (--now, a
 * recording's clock, the local clock). --now alone would misjudge a live server, which stamps
 * `created` by its own clock whatever the run pretends the date is.
 */
async function serverClock(ctx: CheckContext, res: CheckResponse): Promise<{ value: Date; source: string }> {
  const date = dateHeaderMs(res.headers.date);
  return date === undefined ? ctx.referenceTime() : { value: new Date(date), source: 'the answer\'s Date header' };
}

/**
 * A field the judge reads is not there: in a stream, where the description does not list it for
 * chunks, nothing is shown; in a completion it is the schema check's defect on that answer.
 */
function absent(ctx: CheckContext, seen: Seen, what: string, path: string): CheckOutcome {
  if (seen.where === 'the stream') return inconclusive(`the stream carries no ${what.replace(/^an? /, '')} (the description does not list it for chunks)`);
  return shapeHandOff(ctx, 'chat_completion', seen.res, seen.carriers[0], `the completion carries no ${what.replace(/^an? /, '')}`, path);
}

/** `created` near the server's clock. */
const createdJudge: Judge = async (seen, ctx, meaning) => {
  // A value of another type is the schema checks' business, and judges nothing here.
  const values = seen.carriers.map((c) => c.created).filter((v) => typeof v === 'number');
  if (values.length === 0) return absent(ctx, seen, 'a numeric `created`', '/created');
  const clock = await serverClock(ctx, seen.res);
  const now = clock.value.getTime() / 1000;
  const tolerance = meaning.tolerance_seconds ?? 86_400;
  const out: Failure[] = [];
  for (const v of new Set(values)) {
    const off = v - now;
    if (Math.abs(off) <= tolerance) continue;
    const unit = Math.abs(v / 1000 - now) <= tolerance ? ': it is Unix time in milliseconds, not seconds' : '';
    out.push(failure(`${seen.where}: \`created\` ${v} is ${Math.round(Math.abs(off))} s ${off > 0 ? 'ahead of' : 'behind'} the server's clock ${clock.value.toISOString()} (${clock.source}; tolerance ${tolerance} s)${unit}`, seen.res, { path: '/created' }));
  }
  return outcomeOf(out);
};

/** The answer's `model` is a model id of the service (as the target names it under a model map). */
const modelJudge: Judge = async (seen, ctx) => {
  const known = new Set(Object.keys(ctx.spec.models).flatMap((id) => [id, ctx.mapModel(id)]));
  const values = seen.carriers.map((c) => c.model).filter((v) => typeof v === 'string');
  if (values.length === 0) return absent(ctx, seen, 'a `model` string', '/model');
  const unknown = [...new Set(values)].filter((v) => !known.has(v as string));
  return outcomeOf(unknown.map((v) => failure(`${seen.where} names model ${shown(v)}, which is no model of the service (${[...new Set(Object.keys(ctx.spec.models).map((id) => ctx.mapModel(id)))].join(', ')})`, seen.res, { path: '/model' })));
};

/** Every tool call names a function of the request's `tools`. */
const toolJudge: Judge = async (seen) => {
  if (seen.cut) return seen.cut;
  if (seen.toolNames.length === 0) return handOffOnModel(ownerFor(REQUIRED_FORCES_CALL, seen.where === 'the stream'), failure(`${seen.where} makes no tool call although tool_choice is "required", so no name can be judged`, seen.res));
  const offered = new Set(SAMPLE_TOOLS.map((t) => t.function.name));
  return outcomeOf(seen.toolNames.filter((n) => !offered.has(n)).map((n) => failure(`${seen.where} calls ${shown(n)}, which the request did not offer (${[...offered].join(', ')})`, seen.res)));
};


type Planned = { meaning: string; subject: string; expectation: string; title: string; judge: Judge; sources: [keyof typeof SOURCES, string][]; appliesTo: (m: Model) => boolean };

/** What the description's words mean for an answer (meanings.yaml): each a check on a body and on a stream. */
const PLAN: Planned[] = [
    { meaning: 'created-is-unix-seconds', subject: 'created', expectation: 'unix-seconds-near-clock', title: '`created` is Unix time in seconds, near the server clock', judge: createdJudge, sources: [['body', ''], ['stream', 'stream-']], appliesTo: currentModels },
    { meaning: 'model-names-a-model', subject: 'model', expectation: 'names-a-model-of-the-service', title: '`model` names a model of the service', judge: modelJudge, sources: [['body', ''], ['stream', 'stream-']], appliesTo: currentModels },
    { meaning: 'tool-call-names-offered-function', subject: 'tool-call', expectation: 'names-an-offered-function', title: 'a tool call names a function the request offered', judge: toolJudge, sources: [['tool-body', ''], ['tool-stream', 'stream-']], appliesTo: supportsTools },
  ];

/** The check id of a meaning on a source: `answer.model.…`, `answer.stream-model.…`. */
const checkIdOf = (p: Planned, prefix: string) => `answer.${prefix}${p.subject}.${p.expectation}`;

/**
 * The meanings every plain answer is held to (those judged on the plain completion and the plain
 * stream), each with the ids of its checks at rest: what an answer under load is held to as well
 * (checks/answer/conformance.ts).
 */
export function plainAnswerMeanings(spec: Spec): { meaning: Meaning; id: string; ids: { body: string; stream: string }; judge: Judge }[] {
  return PLAN.flatMap((p) => {
    const meaning = spec.meanings[p.meaning];
    const body = p.sources.find(([s]) => s === 'body');
    const stream = p.sources.find(([s]) => s === 'stream');
    if (!meaning || !body || !stream) return [];
    return [{ meaning, id: p.meaning, ids: { body: checkIdOf(p, body[1]), stream: checkIdOf(p, stream[1]) }, judge: p.judge }];
  });
}

/** Checks of what the description's words mean for an answer (meanings.yaml), on a body and on a stream. */
export function answerChecks(spec: Spec): Check[] {
  return PLAN.flatMap((p) => {
    const meaning = spec.meanings[p.meaning];
    if (!meaning) return [];
    return p.sources.map(([source, prefix]) =>
      defineCheck({
        id: checkIdOf(p, prefix),
        title: prefix ? `${p.title}, in a stream` : p.title,
        ...gradeOf(meaning),
        specRefs: [`meanings.${p.meaning}`],
        appliesTo: p.appliesTo,
        async run(ctx) {
          const seen = await SOURCES[source](ctx);
          return 'outcome' in seen ? seen.outcome : p.judge(seen, ctx, meaning);
        },
      }),
    );
  });
}
