import type { Failure } from '#harness/core/outcome.ts';
import { cutOffBy, reasoningPremise, refusedForParameters, ROOM_TOKENS, THINKING_IGNORED, toolCallCut, withRoom } from '../support/premises.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { currentModels, defineCheck, entryFor, gradeOf, type Check } from '../define.ts';
import { inconclusive, reachedStop, runsPastStop, STOP, stopControl } from '../support/cooperation.ts';
import { get, isObject, type Json } from '../support/body.ts';
import { chat, SAMPLE_TOOLS } from '../support/requests.ts';
import { failure, outcomeOf, pass, shown, statusDefect } from '../support/outcome.ts';
import { sample, streamedCompletion } from '../support/samples.ts';
import { brokeOff, endedUnfinished, eventStreamType, isEventStream, MAX_TEXT_CHARS, NO_CHUNK_READ, readStream, type AssembledMessage, type ReadStream, type StreamText } from '../support/stream.ts';
import { handOff, handOffOnModel, ownerFor, REQUIRED_FORCES_CALL } from '../support/handoff.ts';

type Judge = (s: ReadStream, res: CheckResponse) => Failure[];

/**
 * What a check needs of the stream. `whole`: its end or its sum (the terminator, the final chunk),
 * so a stream that broke off fails with why it broke and nothing else. `per-event`: a property of
 * each event, which the events that did arrive show: under a break, what they break is reported
 * beside the break itself (never a pass, since the rest was not seen).
 */
type Needs = 'whole' | 'per-event';

/** One rule of the stream grammar: its check's id and title, the spec entries it enforces, the entry its strength is read from, what it needs of the stream. */
export interface StreamRule {
  id: string;
  title: string;
  specRef: string | string[];
  strengthOf: string;
  needs: Needs;
  judge: Judge;
}

const grammarRule = (id: string, title: string, specRef: string | string[], strengthOf: string, needs: Needs, judge: Judge): StreamRule => ({ id, title, specRef, strengthOf, needs, judge });

/** The grade a rule of the stream grammar is held at (its entry in streaming.yaml). */
export const grammarGrade = (spec: Spec, r: StreamRule) => eventGrade(spec, r.strengthOf, r.id);

const choice = (c: Json) => (Array.isArray(c.choices) && isObject(c.choices[0]) ? (c.choices[0] as Json) : {});
const delta = (c: Json) => (isObject(choice(c).delta) ? (choice(c).delta as Json) : {});
const finishOf = (c: Json) => choice(c).finish_reason;
/** Some choice of the chunk carries a finish_reason (as readStream counts them in `finishes`). */
const carriesFinish = (c: Json) => Array.isArray(c.choices) && c.choices.some((ch) => isObject(ch) && ch.finish_reason !== null && ch.finish_reason !== undefined);
/** "Empty" as the spec reads it: no key holds text (keys whose values are "" or null do not count). */
const hasText = (d: Json) => Object.values(d).some((v) => (typeof v === 'string' && v !== '') || (Array.isArray(v) && v.length > 0));

function eventGrade(spec: Spec, id: string, checkId: string) {
  return gradeOf(entryFor(spec.streaming.events.find((e) => e.id === id) ?? spec.streaming.rules.find((r) => r.id === id), checkId, `streaming: event or rule ${id}`));
}

/** The grade of a rule of rules.yaml that a stream check enforces on the stream. */
function ruleGrade(spec: Spec, id: string, checkId: string) {
  return gradeOf(entryFor(spec.rules.find((r) => r.id === id), checkId, `rules: ${id}`));
}

function streamCheck(spec: Spec, id: string, title: string, specRef: string | string[], strengthOf: string, needs: Needs, judge: Judge): Check {
  return defineCheck({
    id,
    title,
    ...eventGrade(spec, strengthOf, id),
    specRefs: Array.isArray(specRef) ? specRef : [specRef],
    appliesTo: currentModels,
    async run(ctx) {
      const { res, stream } = await streamedCompletion(ctx);
      if (res.status !== 200 || !stream) return outcomeOf([failure(`the streamed request was answered HTTP ${res.status}`, res, statusDefect(res))]);
      // A property of each chunk holds of none vacuously: over no chunk nothing was judged (the checks of the whole stream fail it).
      if (needs === 'per-event' && stream.chunks === 0 && stream.error === undefined) return inconclusive(NO_CHUNK_READ);
      if (stream.error === undefined) return outcomeOf(judge(stream, res));
      const broke = failure(brokeOff(stream), res);
      return outcomeOf(needs === 'per-event' ? [broke, ...judge(stream, res)] : [broke]);
    },
  });
}

/** A streamed request of its own, for checks whose request differs from the shared sample. */
async function ownStream(ctx: CheckContext, extra: Record<string, unknown>) {
  const request = chat(ctx, { stream: true, ...extra });
  const res = await ctx.send(request);
  return { request, res, stream: res.status === 200 ? await readStream(res) : undefined };
}

/**
 * The message an own stream adds up to, or the failure that says why there is none to judge. A
 * refusal of a parameter in `needs` (the same request without it accepted) is that parameter's
 * acceptance check's finding: inconclusive here (support/premises.ts).
 */
async function assembled(ctx: CheckContext, extra: Record<string, unknown>, what = 'the streamed request', needs: readonly string[] = []): Promise<{ res: CheckResponse; message: AssembledMessage } | { failed: CheckOutcome }> {
  const { request, res, stream } = await ownStream(ctx, extra);
  if (!stream) return { failed: (await refusedForParameters(ctx, request, res, needs)) ?? outcomeOf([failure(`${what} was answered HTTP ${res.status}`, res, statusDefect(res))]) };
  // A message cut short says nothing of its finish_reason or its sum: the break is the finding.
  if (stream.error !== undefined) return { failed: outcomeOf([failure(brokeOff(stream), res)]) };
  if (stream.chunks === 0) return { failed: inconclusive(NO_CHUNK_READ) };
  const unfinished = endedUnfinished(stream, res);
  if (unfinished) return { failed: unfinished };
  return { res, message: stream.message };
}

/** The text's first characters as JSON, and its length when that is not all of it. */
function quoted(t: StreamText, at = 100): string {
  return `${JSON.stringify(t.text.slice(0, at))}${t.chars > at ? ` (${t.chars} characters)` : ''}`;
}

export function streamChecks(spec: Spec): Check[] {
  return [...contentTypeChecks(spec), ...STREAM_GRAMMAR.map((r) => streamCheck(spec, r.id, r.title, r.specRef, r.strengthOf, r.needs, r.judge)), ...assembledChecks(spec)];
}

function contentTypeChecks(spec: Spec): Check[] {
  const ct = spec.endpoints.chat_completions?.stream?.content_type;
  return [
    defineCheck({
      id: 'stream.response.content-type-is-event-stream',
      title: `a stream is served as ${eventStreamType(spec)}`,
      ...gradeOf(entryFor(ct, 'stream.response.content-type-is-event-stream', 'endpoints.chat_completions.stream.content_type')),
      specRefs: ['endpoints.chat_completions.stream.content_type'],
      appliesTo: currentModels,
      async run(ctx) {
        const { res } = await streamedCompletion(ctx);
        // A refusal is not a stream served as anything: the stream.events checks report its status.
        if (res.status !== 200) return handOff('stream.events.done-last', failure(`the streamed request was answered HTTP ${res.status}, not a stream`, res, statusDefect(res)));
        return isEventStream(spec, res) ? pass() : outcomeOf([failure(`content-type is ${JSON.stringify(res.headers['content-type'] ?? '')}`, res)]);
      },
    }),
  ];
}

/**
 * The stream grammar: what every whole stream is held to, as a whole and event by event. Each rule
 * is a check at rest (streamChecks), and is applied as it stands to every stream under load
 * (checks/answer/conformance.ts), so the two are held to one list.
 */
export const STREAM_GRAMMAR: readonly StreamRule[] = [
    grammarRule('stream.events.all-parse', 'every data event is a chunk JSON or [DONE]', 'streaming.framing', 'first_chunk', 'per-event', (s, res) => {
      const shown = s.malformed.first.map((m) => failure(`an event is not JSON: ${m.slice(0, 100)}`, res));
      const more = s.malformed.count - shown.length;
      return more > 0 ? [...shown, failure(`and ${more} more event(s) that are not JSON (${s.malformed.count} in all)`, res)] : shown;
    }),
    grammarRule('stream.events.first-chunk-has-role', 'the first chunk carries role assistant and empty content', 'streaming.events.first_chunk', 'first_chunk', 'per-event', (s, res) => {
      const first = s.first;
      if (!first) return s.error === undefined ? [failure('the stream has no chunk', res)] : [];
      const d = delta(first);
      const out: Failure[] = [];
      if (d.role !== 'assistant') out.push(failure(`first chunk delta.role is ${shown(d.role)}`, res));
      if (d.content !== '' && d.content !== null && d.content !== undefined) out.push(failure(`first chunk content is ${shown(d.content)}, expected empty`, res));
      return out;
    }),
    grammarRule('stream.events.done-last', '`data: [DONE]` ends the stream and nothing follows it', ['streaming.events.terminator', 'streaming.rules.stream.done-last'], 'terminator', 'whole', (s, res) => {
      if (!s.done) return [failure('the stream ends without `data: [DONE]`', res)];
      return s.afterDone.count > 0 ? [failure(`${s.afterDone.count} event(s) after [DONE], first: ${s.afterDone.first[0]!.slice(0, 100)}`, res)] : [];
    }),
    grammarRule('stream.events.final-chunk-has-finish-reason', 'a final chunk with an empty delta and finish_reason comes after the content', 'streaming.events.final_chunk', 'final_chunk', 'whole', (s, res) => {
      const last = s.last;
      if (!last) return [failure('the stream has no chunk', res)];
      const out: Failure[] = [];
      if (finishOf(last) === null || finishOf(last) === undefined) out.push(failure('the last chunk has no finish_reason', res));
      if (hasText(delta(last))) out.push(failure(`the last chunk's delta is not empty: ${JSON.stringify(delta(last)).slice(0, 100)}`, res));
      return out;
    }),
    grammarRule('stream.chunks.one-id', 'every chunk carries the same completion id', 'streaming.rules.stream.one-id', 'stream.one-id', 'per-event', (s, res) => {
      const { first, more } = s.ids;
      if (first.length <= 1 && !more) return [];
      const ids = first.slice(0, 3).map((id) => JSON.stringify(id) ?? 'none').join(', ');
      return [failure(`${more ? `more than ${first.length}` : first.length} different ids in one stream (${ids}${first.length > 3 ? ', …' : ''})`, res)];
    }),
    grammarRule('stream.chunks.finish-reason-only-final', 'finish_reason appears only in the final chunk', 'streaming.rules.stream.finish-reason-only-final', 'stream.finish-reason-only-final', 'per-event', (s, res) => {
      // Every chunk with a finish_reason but the last one that arrived (under a break, the last seen may not be the final one either, but nothing says so).
      const lastHas = s.last !== undefined && carriesFinish(s.last);
      const early = s.finishes.count - (lastHas ? 1 : 0);
      if (early <= 0) return [];
      const at = s.finishes.first.filter((i) => i !== s.chunks - 1).slice(0, 5);
      return [failure(`${early} chunk(s) before the last carry finish_reason (chunk ${at.join(', ')}${early > at.length ? ', …' : ''} of ${s.chunks})`, res)];
    }),
];

function assembledChecks(spec: Spec): Check[] {
  return [
    defineCheck({
      id: 'stream.reasoning.deltas-when-thinking',
      title: 'with thinking enabled, chunks carry reasoning text (under a field the description does not name)',
      ...gradeOf(spec.streaming.reasoning),
      specRefs: ['streaming.reasoning'],
      appliesTo: (m) => m.kind === 'current' && Array.isArray(m.thinking_modes) && m.thinking_modes.length > 1,
      async run(ctx) {
        const got = await assembled(ctx, { thinking: { type: 'enabled' } }, 'the thinking stream');
        if ('failed' in got) return got.failed;
        return got.message.reasoning.chars > 0 ? pass() : outcomeOf([failure('no chunk carries reasoning text', got.res)]);
      },
    }),
    defineCheck({
      id: 'stream.reasoning.none-when-thinking-disabled',
      title: 'with thinking disabled, no chunk carries reasoning text',
      ...ruleGrade(spec, 'chat.thinking.disabled-no-reasoning', 'stream.reasoning.none-when-thinking-disabled'),
      specRefs: ['rules.chat.thinking.disabled-no-reasoning', 'streaming.reasoning'],
      appliesTo: currentModels,
      chain: 2,
      async run(ctx) {
        const got = await assembled(ctx, { thinking: { type: 'disabled' } }, 'the stream with thinking disabled');
        if ('failed' in got) return got.failed;
        const r = got.message.reasoning;
        if (r.chars > 0) return outcomeOf([failure(`thinking disabled, yet chunks carry reasoning text: ${quoted(r)}`, got.res)]);
        // "Off" shows only where "on" shows something: the same request with thinking enabled must reason (asked only for a pass).
        // The same control rule.chat.thinking.disabled-no-reasoning asks (one answer, in a recording too).
        const control = await sample(ctx, withRoom(chat(ctx, { thinking: { type: 'enabled' } })));
        if (control.res.status !== 200) return inconclusive(`the control with thinking enabled was answered HTTP ${control.res.status}, so ${THINKING_IGNORED}`);
        const why = reasoningPremise(control.body, 'with thinking enabled', THINKING_IGNORED);
        return why ? inconclusive(why) : pass();
      },
    }),
    defineCheck({
      id: 'stream.assembled.honours-stop',
      title: 'the message a stream adds up to stops at the stop sequence, finish_reason stop',
      ...ruleGrade(spec, 'chat.stop.not-in-output', 'stream.assembled.honours-stop'),
      specRefs: ['rules.chat.stop.not-in-output'],
      appliesTo: currentModels,
      chain: 2,
      async run(ctx) {
        const control = await stopControl(ctx);
        if (control.why !== undefined) return inconclusive(control.why);
        const got = await assembled(ctx, { messages: [{ role: 'user', content: STOP.prompt }], stop: [STOP.sequence] }, 'the streamed request', ['stop']);
        if ('failed' in got) return got.failed;
        const { res, message: m } = got;
        const out: Failure[] = [];
        // The kept text is the first MAX_TEXT_CHARS characters: the words follow the stop sequence closely.
        const past = runsPastStop(m.content.text, control.text);
        if (past) out.push(failure(`streamed: ${past}`, res));
        // Cut off by max_tokens before the stop text: where it would have stopped cannot be seen.
        const cut = cutOffBy(m.finishReason);
        if (cut && !past) return inconclusive(cut);
        if (m.finishReason !== 'stop' && !cut) out.push(failure(`finish_reason ${shown(m.finishReason)}, expected "stop"`, res));
        const notThere = out.length === 0 ? reachedStop(m.content.text, control.text) : undefined;
        return notThere ? inconclusive(notThere) : outcomeOf(out);
      },
    }),
    defineCheck({
      id: 'stream.assembled.honours-max-tokens',
      title: 'a stream cut by max_tokens ends with finish_reason length',
      ...ruleGrade(spec, 'chat.max-tokens.length', 'stream.assembled.honours-max-tokens'),
      specRefs: ['rules.chat.max-tokens.length'],
      appliesTo: currentModels,
      async run(ctx) {
        const got = await assembled(ctx, { messages: [{ role: 'user', content: 'Write a long story about a fox, at least three hundred words.' }], max_tokens: 5 });
        if ('failed' in got) return got.failed;
        const { res, message: m } = got;
        const used = get(m.usage, 'completion_tokens');
        // An answer that ended on its own below the cap was never cut (usage, when the stream sends it, tells).
        if (m.finishReason === 'stop' && typeof used === 'number' && used < 5) return inconclusive(`the stream ended on its own after ${used} tokens, below max_tokens 5: it was never cut, so how a cut is reported cannot be seen`);
        const out: Failure[] = [];
        if (m.finishReason !== 'length') out.push(failure(`finish_reason ${shown(m.finishReason)}, expected "length"`, res));
        if (typeof used === 'number' && used > 5) out.push(failure(`completion_tokens ${used} exceeds max_tokens 5`, res));
        return outcomeOf(out);
      },
    }),
    defineCheck({
      id: 'stream.assembled.tool-calls-add-up',
      title: 'streamed tool-call deltas add up to calls whose arguments are JSON, finish_reason tool_calls',
      ...ruleGrade(spec, 'chat.tools.finish-reason-tool-calls', 'stream.assembled.tool-calls-add-up'),
      specRefs: ['rules.chat.tools.finish-reason-tool-calls'],
      appliesTo: (m) => m.kind === 'current' && !!m.tools && 'supported' in m.tools && m.tools.supported,
      async run(ctx) {
        const got = await assembled(ctx, { messages: [{ role: 'user', content: 'What is the weather in Paris?' }], tools: SAMPLE_TOOLS, tool_choice: 'required', max_tokens: ROOM_TOKENS });
        if ('failed' in got) return got.failed;
        const { res, message: m } = got;
        const cut = toolCallCut(m.finishReason, get(m.usage, 'completion_tokens'));
        if (cut) return cut;
        // No call at all is rule.chat.tool-choice.required-forces-call.streamed's finding: how calls add up needs a call.
        if (m.toolCalls.length === 0) return handOffOnModel(ownerFor(REQUIRED_FORCES_CALL, true), failure(`the stream holds no tool call although tool_choice is "required" (finish_reason ${shown(m.finishReason)}), so how calls add up cannot be seen`, res));
        const out: Failure[] = [];
        for (const c of m.toolCalls) {
          const name = c.name.text.slice(0, 100);
          if (c.arguments.chars > c.arguments.text.length) {
            out.push(failure(`tool call ${name}: assembled arguments run to ${c.arguments.chars} characters, more than the ${MAX_TEXT_CHARS} the harness keeps: ${quoted(c.arguments)}`, res));
            continue;
          }
          try {
            JSON.parse(c.arguments.text);
          } catch {
            out.push(failure(`tool call ${name}: assembled arguments do not parse: ${c.arguments.text.slice(0, 100)}`, res));
          }
        }
        if (m.moreToolCalls) out.push(failure(`more than ${m.toolCalls.length} tool calls in one stream`, res));
        if (m.finishReason !== 'tool_calls') out.push(failure(`finish_reason ${shown(m.finishReason)}, expected "tool_calls"`, res));
        return outcomeOf(out);
      },
    }),
  ];
}
