import type { Failure } from '#harness/core/outcome.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckResponse } from '../context.ts';
import { currentModels, defineCheck, severityOf, type Check } from '../define.ts';
import { get, isObject, type Json } from '../support/body.ts';
import { SAMPLE_TOOLS } from '../support/build.ts';
import { failure, outcomeOf, pass } from '../support/outcome.ts';
import { chat } from '../support/requests.ts';
import { streamedCompletion } from '../support/samples.ts';
import { assemble, readStream, type ReadStream } from '../support/stream.ts';

type Judge = (s: ReadStream, res: CheckResponse) => Failure[];

const choice = (c: Json) => (Array.isArray(c.choices) && isObject(c.choices[0]) ? (c.choices[0] as Json) : {});
const delta = (c: Json) => (isObject(choice(c).delta) ? (choice(c).delta as Json) : {});
const finishOf = (c: Json) => choice(c).finish_reason;
/** "Empty" as the spec reads it: no key holds text (keys whose values are "" or null do not count). */
const hasText = (d: Json) => Object.values(d).some((v) => (typeof v === 'string' && v !== '') || (Array.isArray(v) && v.length > 0));

function eventStrength(spec: Spec, id: string) {
  return severityOf(spec.streaming.events.find((e) => e.id === id)?.strength ?? spec.streaming.rules.find((r) => r.id === id)?.strength ?? 'must');
}

function streamCheck(spec: Spec, id: string, title: string, specRef: string | string[], strengthOf: string, judge: Judge): Check {
  return defineCheck({
    id,
    title,
    area: 'stream',
    severity: eventStrength(spec, strengthOf),
    specRefs: Array.isArray(specRef) ? specRef : [specRef],
    appliesTo: currentModels,
    async run(ctx) {
      const { res, stream } = await streamedCompletion(ctx);
      if (res.status !== 200 || !stream) return outcomeOf([failure(`the streamed request was answered HTTP ${res.status}`, res)]);
      if (stream.error) return outcomeOf([failure(`the stream broke off: ${stream.error}`, res)]);
      return outcomeOf(judge(stream, res));
    },
  });
}

/** A streamed request of its own, for checks whose request differs from the shared sample. */
async function ownStream(ctx: CheckContext, extra: Record<string, unknown>) {
  const res = await ctx.send(chat(ctx, { stream: true, ...extra }));
  return { res, stream: res.status === 200 ? await readStream(res) : undefined };
}

export function streamChecks(spec: Spec): Check[] {
  const ct = spec.endpoints.chat_completions?.stream?.content_type;
  return [
    defineCheck({
      id: 'stream.response.content-type-is-event-stream',
      title: `a stream is served as ${ct?.value ?? 'text/event-stream'}`,
      area: 'stream',
      severity: severityOf(ct?.strength ?? 'unspecified'),
      specRefs: ['endpoints.chat_completions.stream.content_type'],
      appliesTo: currentModels,
      async run(ctx) {
        const { res } = await streamedCompletion(ctx);
        const got = res.headers['content-type'] ?? '';
        return got.startsWith(ct?.value ?? 'text/event-stream') ? pass() : outcomeOf([failure(`content-type is ${JSON.stringify(got)}`, res)]);
      },
    }),
    streamCheck(spec, 'stream.events.all-parse', 'every data event is a chunk JSON or [DONE]', 'streaming.framing', 'first_chunk', (s, res) =>
      s.malformed.map((m) => failure(`an event is not JSON: ${m.slice(0, 100)}`, res)),
    ),
    streamCheck(spec, 'stream.events.first-chunk-has-role', 'the first chunk carries role assistant and empty content', 'streaming.events.first_chunk', 'first_chunk', (s, res) => {
      const first = s.chunks[0];
      if (!first) return [failure('the stream has no chunk', res)];
      const d = delta(first);
      const out: Failure[] = [];
      if (d.role !== 'assistant') out.push(failure(`first chunk delta.role is ${JSON.stringify(d.role)}`, res));
      if (d.content !== '' && d.content !== null && d.content !== undefined) out.push(failure(`first chunk content is ${JSON.stringify(d.content)}, expected empty`, res));
      return out;
    }),
    streamCheck(spec, 'stream.events.done-last', '`data: [DONE]` ends the stream and nothing follows it', ['streaming.events.terminator', 'streaming.rules.stream.done-last'], 'terminator', (s, res) => {
      if (!s.done) return [failure('the stream ends without `data: [DONE]`', res)];
      return s.afterDone.length > 0 ? [failure(`${s.afterDone.length} event(s) after [DONE]`, res)] : [];
    }),
    streamCheck(spec, 'stream.events.final-chunk-has-finish-reason', 'a final chunk with an empty delta and finish_reason comes after the content', 'streaming.events.final_chunk', 'final_chunk', (s, res) => {
      const last = s.chunks.at(-1);
      if (!last) return [failure('the stream has no chunk', res)];
      const out: Failure[] = [];
      if (finishOf(last) === null || finishOf(last) === undefined) out.push(failure('the last chunk has no finish_reason', res));
      if (hasText(delta(last))) out.push(failure(`the last chunk's delta is not empty: ${JSON.stringify(delta(last)).slice(0, 100)}`, res));
      return out;
    }),
    streamCheck(spec, 'stream.chunks.one-id', 'every chunk carries the same completion id', 'streaming.rules.stream.one-id', 'stream.one-id', (s, res) => {
      const ids = new Set(s.chunks.map((c) => c.id));
      return ids.size === 1 ? [] : [failure(`${ids.size} different ids in one stream`, res)];
    }),
    streamCheck(spec, 'stream.chunks.finish-reason-only-final', 'finish_reason appears only in the final chunk', 'streaming.rules.stream.finish-reason-only-final', 'stream.finish-reason-only-final', (s, res) => {
      const early = s.chunks.slice(0, -1).filter((c) => finishOf(c) !== null && finishOf(c) !== undefined);
      return early.length > 0 ? [failure(`${early.length} chunk(s) before the last carry finish_reason`, res)] : [];
    }),
    defineCheck({
      id: 'stream.reasoning.deltas-when-thinking',
      title: 'with thinking enabled, chunks carry reasoning text (under a field the description does not name)',
      area: 'stream',
      severity: severityOf(spec.streaming.reasoning.strength),
      specRefs: ['streaming.reasoning'],
      appliesTo: (m) => m.kind === 'current' && Array.isArray(m.thinking_modes) && m.thinking_modes.length > 1,
      async run(ctx) {
        const { res, stream } = await ownStream(ctx, { thinking: { type: 'enabled' } });
        if (!stream) return outcomeOf([failure(`thinking stream answered HTTP ${res.status}`, res)]);
        return assemble(stream.chunks).reasoning.length > 0 ? pass() : outcomeOf([failure('no chunk carries reasoning text', res)]);
      },
    }),
    defineCheck({
      id: 'stream.assembled.honours-stop',
      title: 'the message a stream adds up to stops at the stop sequence, finish_reason stop',
      area: 'stream',
      severity: 'must',
      specRefs: ['rules.chat.stop.not-in-output'],
      appliesTo: currentModels,
      async run(ctx) {
        const { res, stream } = await ownStream(ctx, { messages: [{ role: 'user', content: 'Repeat: alpha beta STOP gamma delta' }], stop: ['STOP'] });
        if (!stream) return outcomeOf([failure(`answered HTTP ${res.status}`, res)]);
        const m = assemble(stream.chunks);
        const out: Failure[] = [];
        if (/gamma|delta/.test(m.content)) out.push(failure(`the streamed output runs past the stop sequence: ${JSON.stringify(m.content.slice(0, 100))}`, res));
        if (m.finishReason !== 'stop') out.push(failure(`finish_reason ${JSON.stringify(m.finishReason)}, expected "stop"`, res));
        return outcomeOf(out);
      },
    }),
    defineCheck({
      id: 'stream.assembled.honours-max-tokens',
      title: 'a stream cut by max_tokens ends with finish_reason length',
      area: 'stream',
      severity: 'must',
      specRefs: ['rules.chat.max-tokens.length'],
      appliesTo: currentModels,
      async run(ctx) {
        const { res, stream } = await ownStream(ctx, { messages: [{ role: 'user', content: 'Write a long story about a fox, at least three hundred words.' }], max_tokens: 5 });
        if (!stream) return outcomeOf([failure(`answered HTTP ${res.status}`, res)]);
        const m = assemble(stream.chunks);
        const used = get(m.usage, 'completion_tokens');
        const out: Failure[] = [];
        if (m.finishReason !== 'length') out.push(failure(`finish_reason ${JSON.stringify(m.finishReason)}, expected "length"`, res));
        if (typeof used === 'number' && used > 5) out.push(failure(`completion_tokens ${used} exceeds max_tokens 5`, res));
        return outcomeOf(out);
      },
    }),
    defineCheck({
      id: 'stream.assembled.tool-calls-add-up',
      title: 'streamed tool-call deltas add up to calls whose arguments are JSON, finish_reason tool_calls',
      area: 'stream',
      severity: 'must',
      specRefs: ['rules.chat.tools.finish-reason-tool-calls'],
      appliesTo: (m) => m.kind === 'current' && !!m.tools && 'supported' in m.tools && m.tools.supported,
      async run(ctx) {
        const { res, stream } = await ownStream(ctx, { messages: [{ role: 'user', content: 'What is the weather in Paris?' }], tools: SAMPLE_TOOLS, tool_choice: 'required' });
        if (!stream) return outcomeOf([failure(`answered HTTP ${res.status}`, res)]);
        const m = assemble(stream.chunks);
        const out: Failure[] = [];
        if (m.toolCalls.length === 0) out.push(failure('no tool call in the stream', res));
        for (const c of m.toolCalls) {
          try {
            JSON.parse(c.arguments);
          } catch {
            out.push(failure(`tool call ${c.name}: assembled arguments do not parse: ${c.arguments.slice(0, 100)}`, res));
          }
        }
        if (m.finishReason !== 'tool_calls') out.push(failure(`finish_reason ${JSON.stringify(m.finishReason)}, expected "tool_calls"`, res));
        return outcomeOf(out);
      },
    }),
  ];
}
