/**
 * What one answer is held to at rest, as one judge: for a completion body, its schema, the sums of
 * its usage (meanings.yaml) and the meanings of a plain answer (`model`, `created`); for a stream,
 * each chunk's schema and usage sums, the stream grammar (checks/stream/events.ts) and the same
 * meanings. Each rule is the one its check at rest applies, taken from where that check takes it,
 * never a copy: the load phase holds every answer under load to it (load/drive.ts).
 */
import { sumViolations } from '#harness/derive/meanings/sums.ts';
import type { Violation } from '#harness/derive/validators/index.ts';
import type { Failure } from '#harness/core/outcome.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { gradeOf } from '../define.ts';
import { get, type Json } from '../support/body.ts';
import { schemaCheckOf, type ShapedObject } from '../support/handoff.ts';
import { chunkJudge, type ReadStream } from '../support/stream.ts';
import { grammarGrade, STREAM_GRAMMAR } from '../stream/events.ts';
import { fromBody, fromStream, plainAnswerMeanings } from './meaning.ts';
import type { Breach } from './breach.ts';

export interface AnswerJudge {
  /** A chunk's violations as it arrives (readStream's judge): its schema, and its usage's sums. */
  chunk(chunk: Json): Violation[];
  /** A completion body's breaches. */
  body(res: CheckResponse, body: unknown): Promise<Breach[]>;
  /** A whole stream's breaches: it was read with `chunk` as its judge. */
  stream(res: CheckResponse, s: ReadStream): Promise<Breach[]>;
}

/** Usage sums of meanings.yaml a value breaks, at `path`. */
const sums = (ctx: CheckContext, usage: unknown, path: string) => sumViolations(ctx.spec, 'usage', usage, path);
/** The check at rest that holds a violation: a usage sum's (its meaning), else the object's schema check. */
const ruleOfViolation = (v: Violation, object: ShapedObject) => (v.keyword === 'sum' && v.specRef ? v.specRef : schemaCheckOf(object));
const said = (v: Violation) => `${v.path || '/'}: ${v.message}`;
const violated = (v: Violation, object: ShapedObject, chunk?: number): Breach => {
  const rule = ruleOfViolation(v, object);
  return { rule, kind: `${rule} ${v.path || '/'} ${v.keyword}`, message: said(v), ...(chunk === undefined ? {} : { chunk }) };
};

/** The failures of an outcome that are the check's own (not handed to another check). */
const ownFailures = (o: CheckOutcome): Failure[] => (o.verdict === 'fail' ? o.failures.filter((f) => f.ownedBy === undefined) : []);

/** The judge of one run's answers (the default profile: what a run holds at must, whatever --strict says). */
export function answerJudge(ctx: CheckContext): AnswerJudge {
  const chunks = chunkJudge(ctx.spec, false);
  const meanings = plainAnswerMeanings(ctx.spec).filter((m) => gradeOf(m.meaning).severity === 'must');
  const grammar = STREAM_GRAMMAR.filter((r) => grammarGrade(ctx.spec, r).severity === 'must');
  const meant = async (seen: ReturnType<typeof fromBody>, id: (m: (typeof meanings)[number]) => string): Promise<Breach[]> => {
    if ('outcome' in seen) return [];
    const out: Breach[] = [];
    for (const m of meanings) for (const f of ownFailures(await m.judge(seen, ctx, m.meaning))) out.push({ rule: id(m), kind: id(m), message: f.message });
    return out;
  };
  return {
    chunk: (chunk) => [...chunks(chunk), ...sums(ctx, chunk.usage, '/usage')],
    async body(res, body) {
      const found = [...ctx.judge('chat_completion', body), ...sums(ctx, get(body, 'usage'), '/usage')].filter((v) => v.level === 'must');
      return [...found.map((v) => violated(v, 'chat_completion')), ...(await meant(fromBody(res, body), (m) => m.ids.body))];
    },
    async stream(res, s) {
      const out: Breach[] = (s.violations?.must?.first ?? []).map((v) => violated(v, 'chat_completion_chunk', v.chunk));
      for (const r of grammar) for (const f of r.judge(s, res)) out.push({ rule: r.id, kind: r.id, message: f.message });
      return [...out, ...(await meant(fromStream(res, s), (m) => m.ids.stream))];
    },
  };
}
