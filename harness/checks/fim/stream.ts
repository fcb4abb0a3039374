import type { Spec } from '#harness/spec/model.ts';
import { defineCheck, fimModels, gradeOf, type Check } from '../define.ts';
import { get, isObject } from '../support/body.ts';
import { failure, outcomeOf, pass, shown, statusDefect } from '../support/outcome.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { fim } from '../support/requests.ts';
import { isEventStream, isUsageCarrier } from '../support/stream.ts';
import { inconclusive } from '../support/cooperation.ts';
import { sample } from '../support/samples.ts';

/** What a FIM stream amounts to: its text pieces, and what departs from a stream of them. */
export interface FimStream {
  text: string;
  pieces: number;
  done: boolean;
  departures: string[];
}

/**
 * Folds the data events of a FIM stream: every chunk has `choices[0].text` (or is the final one), `[DONE]`
 * ends it. The usage carrier after the final chunk (streaming.yaml usage_carrier) is read as readStream reads it: no chunk of the middle.
 */
export function foldFimStream(events: readonly { kind: string; data: string }[]): FimStream {
  const out: FimStream = { text: '', pieces: 0, done: false, departures: [] };
  const lastData = events.findLastIndex((e) => e.kind === 'data');
  let previousFinished = false;
  events.forEach((e, i) => {
    if (e.kind === 'done') out.done = true;
    if (e.kind === 'after-done') out.departures.push(`event ${i} follows \`data: [DONE]\``);
    if (e.kind !== 'data') return;
    let chunk: unknown;
    try {
      chunk = JSON.parse(e.data);
    } catch {
      out.departures.push(`event ${i} is not JSON: ${shown(e.data)}`);
      return;
    }
    if (i === lastData && previousFinished && isObject(chunk) && isUsageCarrier(chunk)) return;
    const text = get(chunk, 'choices', 0, 'text');
    const finish = get(chunk, 'choices', 0, 'finish_reason');
    previousFinished = finish !== undefined && finish !== null;
    if (typeof text === 'string') {
      out.text += text;
      out.pieces++;
    } else if (finish === undefined || finish === null) out.departures.push(`chunk ${i} has no \`choices[0].text\` and is not a final chunk: ${shown(chunk)}`);
    if (!isObject(chunk)) out.departures.push(`event ${i} is not a JSON object`);
  });
  if (!out.done) out.departures.push('the stream does not end with `data: [DONE]`');
  if (out.text === '') out.departures.push('the chunks add up to no text');
  return out;
}

/** Fill-in-the-middle asked to stream: a stream of text pieces, or a clear refusal; never a plain body a stream reader reads as nothing. */
export function fimStreamChecks(spec: Spec): Check[] {
  const entry = spec.streaming.fim_stream;
  return [
    defineCheck({
      id: 'fim.stream.text-pieces-or-refusal',
      title: 'fill-in-the-middle with stream: true streams choices[].text pieces ending with [DONE], or refuses the field',
      ...gradeOf(entry),
      specRefs: ['streaming.fim_stream'],
      appliesTo: fimModels,
      // A refusal asks its control after it.
      chain: 2,
      async run(ctx) {
        const res = await ctx.send(fim(ctx, { stream: true }));
        if (res.status >= 400 && res.status < 500) {
          const failures = await judgeRefusal(ctx, res, { error: true, status_unspecified: true }, 'fill-in-the-middle refusing `stream`');
          if (failures.length > 0) return outcomeOf(failures);
          // A refusal is of `stream` only where the same request without it is accepted.
          const { res: plain } = await sample(ctx, fim(ctx));
          if (plain.status !== 200) return inconclusive(`the same request without \`stream\` is refused too (HTTP ${plain.status}): the refusal is not of \`stream\``);
          return pass(`refused \`stream\` with HTTP ${res.status} and an error envelope (a clear refusal); the same request without it is accepted`);
        }
        if (res.status !== 200) return outcomeOf([failure(`fill-in-the-middle with \`stream\` true was answered HTTP ${res.status}`, res, statusDefect(res))]);
        if (!isEventStream(ctx.spec, res)) {
          return outcomeOf([failure(`fill-in-the-middle with \`stream\` true was answered 200 as ${shown(res.headers['content-type'] ?? '')}, not a stream: a streaming client (the official openai one) reads it as a stream of no chunks, without an error`, res)]);
        }
        const events = [];
        for await (const e of res.events()) events.push(e);
        return outcomeOf(foldFimStream(events).departures.map((d) => failure(`the fill-in-the-middle stream: ${d}`, res)));
      },
    }),
  ];
}
