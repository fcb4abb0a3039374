import type { Basis, Spec, Strength } from '#harness/spec/model.ts';
import type { Level, Violation } from '#harness/derive/validators/index.ts';
import type { Failure } from '#harness/core/outcome.ts';
import type { CheckContext, CheckOutcome, CheckRequest, CheckResponse } from '../context.ts';
import { currentModels, defaultModelOnly, defineCheck, fimModels, messagesModels, severityOf, type Check } from '../define.ts';
import { chat, chatBody, fim, messagesRequest } from '../support/requests.ts';
import { failure, outcomeOf, pass, schemaFailure, skip, statusDefect, unsupported } from '../support/outcome.ts';
import { isObject } from '../support/body.ts';
import { inconclusive } from '../support/cooperation.ts';
import { ownedBy, SCHEMA_SUBJECTS, type ShapedObject } from '../support/handoff.ts';
import { plainCompletion, sample, streamedWithUsage } from '../support/samples.ts';
import { brokeOff, MAX_SAMPLES, type ReadStream } from '../support/stream.ts';
import type { Model } from '#harness/spec/model.ts';
import { schemaFactsOf } from './schemaFacts.ts';

/**
 * How to obtain bodies of one response object from the target: the bodies themselves, or a stream
 * whose chunks were judged as they arrived (a stream may be too long to keep its chunks).
 */
interface Source {
  object: ShapedObject;
  appliesTo: (m: Model) => boolean;
  bodies(ctx: CheckContext): Promise<({ res: CheckResponse; expectStatus: (s: number) => boolean } & ({ bodies: unknown[]; unreadable?: string } | { stream: ReadStream | undefined })) | { unsupported: string }>;
}

const ok = (s: number) => s >= 200 && s < 300;

function single(make: (ctx: CheckContext) => CheckRequest, expectStatus = ok) {
  return async (ctx: CheckContext) => {
    const { res, body, unreadable } = await sample(ctx, make(ctx));
    return { res, bodies: body === undefined ? [] : [body], ...(unreadable === undefined ? {} : { unreadable }), expectStatus };
  };
}

const EMPTY_MESSAGES = (ctx: CheckContext): CheckRequest => ({ base: 'base_url', method: 'POST', path: '/chat/completions', body: chatBody(ctx, { messages: [] }) });

const SOURCES: Source[] = [
  {
    object: 'chat_completion',
    appliesTo: currentModels,
    bodies: async (ctx) => {
      const { res, body, unreadable } = await plainCompletion(ctx);
      return { res, bodies: body === undefined ? [] : [body], ...(unreadable === undefined ? {} : { unreadable }), expectStatus: ok };
    },
  },
  {
    object: 'chat_completion_chunk',
    appliesTo: currentModels,
    // The stream asked to carry usage, as clients ask: its usage chunk is judged too, so the usage
    // checks of that same answer can leave a missing usage field to this check.
    bodies: async (ctx) => {
      const { res, stream } = await streamedWithUsage(ctx);
      return { res, stream, expectStatus: ok };
    },
  },
  { object: 'model_list', appliesTo: defaultModelOnly, bodies: single(() => ({ base: 'base_url', method: 'GET', path: '/models' })) },
  { object: 'balance', appliesTo: defaultModelOnly, bodies: single(() => ({ base: 'base_url', method: 'GET', path: '/user/balance' })) },
  {
    object: 'fim_completion',
    appliesTo: fimModels,
    bodies: single(fim),
  },
  {
    object: 'messages_response',
    appliesTo: messagesModels,
    bodies: single(messagesRequest),
  },
  {
    object: 'error_envelope',
    appliesTo: defaultModelOnly,
    // An error to judge: `messages: []` (400), or, where that is accepted, a wrong key (401).
    bodies: async (ctx) => {
      const refused = (s: number) => s >= 400;
      const empty = await single(EMPTY_MESSAGES, refused)(ctx);
      if (refused(empty.res.status)) return empty;
      return single((c) => ({ ...chat(c), auth: 'wrong' }), refused)(ctx);
    },
  },
];

/** Which violations a check of a level counts. */
/** The strict profile reports what the description leaves open (fields it does not list), at should, on request. */
const LEVELS: { level: 'must' | 'should' | 'unspecified' | 'strict'; expectation: string; strength: Strength; basis: Basis; title: string }[] = [
  { level: 'must', expectation: 'matches-schema', strength: 'must', basis: 'stated', title: 'matches what the description states' },
  { level: 'should', expectation: 'matches-stated-shapes', strength: 'should', basis: 'advised', title: 'has the shapes the description gives in its notes' },
  { level: 'unspecified', expectation: 'matches-unstated-shapes', strength: 'unspecified', basis: 'unspecified', title: 'matches shapes the description leaves open (advisory)' },
  { level: 'strict', expectation: 'has-no-unlisted-fields', strength: 'should', basis: 'unspecified', title: 'carries only fields the description lists (strict profile)' },
];

/**
 * A streamed answer's chunks at one level, as readStream judged them on arrival: the first
 * violations (path `/<chunk index>/…`) and how many there were. A stream that broke off is a
 * failure whatever its chunks show, since the rest was never judged; violations in the chunks
 * that did arrive are reported beside it.
 */
function judgeStreamed(stream: ReadStream | undefined, res: CheckResponse, level: Level): CheckOutcome {
  const found = stream?.violations?.[level];
  if (!stream || !stream.violations) return outcomeOf([failure('the stream was not judged', res)]);
  const out: Failure[] = [];
  if (stream.error !== undefined) out.push(failure(brokeOff(stream), res));
  else if (stream.chunks === 0) out.push(failure('no chunk in the stream to judge', res));
  for (const v of found?.first ?? []) out.push(schemaFailure({ ...v, path: `/${v.chunk}${v.path}` }, res));
  if (found && found.count > found.first.length) out.push(failure(`and ${found.count - found.first.length} more violation(s) at this level (${found.count} in ${stream.chunks + (stream.usageCarrier ? 1 : 0)} chunks)`, res));
  return outcomeOf(out);
}

/**
 * No refusal came to judge: empty `messages` and then an unknown key were both accepted. Each is a
 * defect of its own rule's check, handed there on its answer: where both fail on them, there was
 * no envelope to judge; where one does not, this check reports it.
 */
async function noRefusal(ctx: CheckContext, wrongKey: CheckResponse): Promise<CheckOutcome> {
  const { res: empty } = await sample(ctx, EMPTY_MESSAGES(ctx));
  return {
    verdict: 'fail',
    failures: [
      ownedBy('rule.chat.messages.non-empty', failure(`no error answer to judge: a request with empty \`messages\` was answered HTTP ${empty.status}`, empty, statusDefect(empty, '4xx'))),
      ownedBy(`auth.wrong-key.returns-${ctx.spec.authentication.failure_status}`, failure(`no error answer to judge: a request with an unknown key was answered HTTP ${wrongKey.status}`, wrongKey, statusDefect(wrongKey, String(ctx.spec.authentication.failure_status)))),
    ],
  };
}

export function schemaChecks(spec: Spec): Check[] {
  const checks: Check[] = [];
  for (const source of SOURCES) {
    if (!spec.objects[source.object]) continue;
    const { levels, refs } = schemaFactsOf(spec, source.object);
    for (const lvl of LEVELS) {
      // A level with no constraint in this object's schema could never fail: no check for it.
      if (!levels.includes(lvl.level)) continue;
      checks.push(
        defineCheck({
          id: `schema.${SCHEMA_SUBJECTS[source.object]}.${lvl.expectation}`,
          title: `${spec.objects[source.object]!.title} ${lvl.title}`,
          severity: severityOf(lvl.strength),
          basis: lvl.basis,
          specRefs: refs,
          appliesTo: source.appliesTo,
          async run(ctx) {
            if (lvl.level === 'strict' && !ctx.options.strict) return skip('the strict profile is off (run with --strict to report fields the description does not list)');
            const got = await source.bodies(ctx);
            if ('unsupported' in got) return unsupported(got.unsupported);
            if (!got.expectStatus(got.res.status)) {
              if (got.res.status === 404 && source.object !== 'error_envelope') return unsupported(`the endpoint answered 404: not served here`);
              // No refusal came, so there is no envelope to judge: the statuses are their own checks' findings.
              if (source.object === 'error_envelope') return noRefusal(ctx, got.res);
              return outcomeOf([failure(`expected a success to judge, got HTTP ${got.res.status}`, got.res, statusDefect(got.res, '200'))]);
            }
            if ('stream' in got) return judgeStreamed(got.stream, got.res, lvl.level);
            if (got.bodies.length === 0) return outcomeOf([failure(`no JSON body to judge${got.unreadable === undefined ? '' : `: ${got.unreadable}`}`, got.res)]);
            const profile = lvl.level === 'strict' ? 'strict' : 'default';
            const violations: Violation[] = got.bodies.flatMap((b, i) =>
              ctx.judge(source.object, b, profile).filter((v) => v.level === lvl.level).map((v) => ({ ...v, path: got.bodies.length > 1 ? `/${i}${v.path}` : v.path })),
            );
            if (violations.length > 0) return outcomeOf(violations.slice(0, MAX_SAMPLES).map((v) => schemaFailure(v, got.res)));
            // Shapes hold of fields vacuously: a body with none of the object's fields showed none of them.
            const fields = Object.keys(spec.objects[source.object]!.fields ?? {});
            const shown = got.bodies.some((b) => !isObject(b) || fields.length === 0 || fields.some((f) => f in b));
            return shown ? pass() : inconclusive(`the body carries none of the fields of ${spec.objects[source.object]!.title} (${fields.join(', ')}), so there is no shape to judge`);
          },
        }),
      );
    }
  }
  return checks;
}
