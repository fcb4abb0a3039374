import type { Rule, Spec, TypeExpr } from '#harness/spec/model.ts';
import type { CheckContext, CheckRequest, CheckResponse } from '../context.ts';
import { currentModels, defineCheck, gradeOf, type Check } from '../define.ts';
import { modelMax } from '../support/build.ts';
import { chat } from '../support/requests.ts';
import { failure, outcomeOf, pass, skip, statusDefect } from '../support/outcome.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { inconclusive } from '../support/cooperation.ts';
import { plainCompletion, sample, settled } from '../support/samples.ts';
import { handOff } from '../support/handoff.ts';
import { askTwins, carriesStream, errorObjectIn, STREAMED, streamedTwinOf, judgeStreamedRefusal } from '../support/streamedRefusal.ts';
import type { Failure } from '#harness/core/outcome.ts';
import { leftOutByRequest } from '#harness/spec/features.ts';

const kebab = (s: string) => s.replace(/_/g, '-');

/** Whether a field of the chat request has bounds, and so checks of its own here. */
const hasBounds = (expr: TypeExpr): boolean => typeof expr.minimum !== 'undefined' || typeof expr.maximum !== 'undefined' || (!!expr.enum && expr.type === 'string') || !!expr.one_of?.some((a) => typeof a.max_items === 'number');

/** The check that owns whether a value of `field` within its bounds is accepted. */
const acceptanceCheckOf = (field: string): string => `request.${kebab(field)}.accepted-within-bounds`;

/**
 * The check that owns whether a request carrying `field` is accepted: its bounds check, when it has
 * bounds; else none but the rules that need it, each of which then owns it.
 */
export function acceptanceOwner(spec: Spec, field: string): string | undefined {
  return bounded(spec, field) ? acceptanceCheckOf(field) : undefined;
}

/** The check that sends `field` just beyond its bounds and off its list, when it has bounds. */
export function refusalOwner(spec: Spec, field: string): string | undefined {
  return bounded(spec, field) ? refusalCheckOf(field) : undefined;
}

/** Whether a field of the chat request has bounds, and so the two checks of its own here. */
function bounded(spec: Spec, field: string): boolean {
  const expr = spec.objects.chat_completion_request?.fields[field];
  return expr !== undefined && hasBounds(expr);
}

const refusalCheckOf = (field: string): string => `request.${kebab(field)}.refused-beyond-bounds`;

interface Probe {
  value: unknown;
  label: string;
  /** Asks for an answer that may run long: a per-model output maximum (`max_tokens` 384000). */
  long?: true;
}

/** Fields other fields need to be accepted at all (top_logprobs needs logprobs = true), from the rules. */
function companions(spec: Spec, field: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of spec.rules) {
    const [first, second] = r.when;
    if (r.when.length === 2 && first?.field === field && first.present === true && second?.field && 'not_equals' in second) out[second.field] = second.not_equals;
  }
  return out;
}

function boundRule(spec: Spec): Rule {
  const r = spec.rules.find((x) => x.id === 'bound.out-of-range');
  if (!r) throw new Error('spec has no rule bound.out-of-range');
  return r;
}

/** Rules about a per-model bound (max_tokens above the model's maximum) this check also enforces. */
function perModelRules(spec: Spec, expr: TypeExpr): string[] {
  if (typeof expr.maximum !== 'object') return [];
  return spec.rules.filter((r) => r.when.some((c) => typeof c.above === 'object' && c.above.per_model === (expr.maximum as { per_model: string }).per_model)).map((r) => `rules.${r.id}`);
}

function step(expr: TypeExpr): number {
  return expr.type === 'integer' ? 1 : 0.01;
}

/**
 * Two checks per bounded field of the chat request: accepted at each bound, refused just beyond it
 * with the status the spec names and a well-formed envelope. Derived from objects.yaml, so a bound
 * added to the spec is checked without new code.
 */
export function boundChecks(spec: Spec): Check[] {
  const fields = spec.objects.chat_completion_request?.fields ?? {};
  const rule = boundRule(spec);
  // The chat request can carry `stream`: each refusal check has a streamed twin.
  const twinned = carriesStream(spec, 'chat_completions');
  const checks: Check[] = [];
  for (const [name, expr] of Object.entries(fields)) {
    const probes = (ctx: CheckContext): { inside: Probe[]; outside: Probe[] } | { skip: string } => {
      if (typeof expr.maximum === 'object' && expr.maximum.per_model === 'max_output_tokens') {
        const max = modelMax(ctx.spec, ctx.model);
        if (!max) return { skip: `${ctx.model} states no maximum output` };
        return { inside: [{ value: max.accept, label: `${max.accept} (the maximum, ${max.asWritten})`, long: true }], outside: [{ value: max.reject, label: `${max.reject} (beyond ${max.asWritten} under either reading)` }] };
      }
      const inside: Probe[] = [];
      const outside: Probe[] = [];
      if (typeof expr.minimum === 'number') {
        inside.push({ value: expr.minimum, label: `${expr.minimum} (the minimum)` });
        outside.push({ value: +(expr.minimum - step(expr)).toFixed(2), label: `${+(expr.minimum - step(expr)).toFixed(2)} (just below)` });
      }
      if (typeof expr.maximum === 'number') {
        inside.push({ value: expr.maximum, label: `${expr.maximum} (the maximum)` });
        outside.push({ value: +(expr.maximum + step(expr)).toFixed(2), label: `${+(expr.maximum + step(expr)).toFixed(2)} (just above)` });
      }
      const arrayAlt = expr.one_of?.find((a) => typeof a.max_items === 'number');
      if (arrayAlt && typeof arrayAlt.max_items === 'number') {
        const n = arrayAlt.max_items;
        inside.push({ value: Array.from({ length: n }, (_, i) => `END${i}`), label: `${n} items (the maximum)` });
        outside.push({ value: Array.from({ length: n + 1 }, (_, i) => `END${i}`), label: `${n + 1} items` });
      }
      if (expr.enum && expr.type === 'string') {
        for (const v of expr.enum) inside.push({ value: v, label: JSON.stringify(v) });
        outside.push({ value: 'not-a-listed-value', label: '"not-a-listed-value"' });
      }
      return inside.length === 0 ? { skip: 'no bound' } : { inside, outside };
    };
    if (!hasBounds(expr)) continue;
    const request = (ctx: CheckContext, value: unknown): CheckRequest => chat(ctx, { ...companions(ctx.spec, name), [name]: value });

    checks.push(
      defineCheck({
        id: acceptanceCheckOf(name),
        title: `\`${name}\` is accepted at its bounds and allowed values`,
        ...gradeOf(expr),
        specRefs: [`objects.chat_completion_request.fields.${name}`],
        appliesTo: currentModels,
        judges: 'status',
        // A refusal asks its control after it.
        chain: 2,
        async run(ctx) {
          const p = probes(ctx);
          if ('skip' in p) return skip(p.skip, 'inconclusive');
          // Sent together (none depends on another), each shared with the refusal check's control: the same request, one answer.
          const answers = await Promise.all(p.inside.map(async (probe) => ({ probe, ...(await acceptanceOf(ctx, request(ctx, probe.value), twinned && probe.long === true)) })));
          const refused = answers.filter((a) => !a.accepted);
          if (refused.length === 0) return pass();
          // A refusal is of the value only where the same request without the field is accepted.
          const { res: without } = await plainCompletion(ctx);
          if (without.status !== 200) return inconclusive(`the smallest valid request, without \`${name}\`, is answered HTTP ${without.status} too: the refusal is not of \`${name}\``);
          return outcomeOf(refused.map(({ probe, res, errorEvent }) => failure(`\`${name}\` = ${probe.label} was refused with HTTP ${res.status}${errorEvent ? `: the stream's first event is an error (${errorEvent.slice(0, 200)})` : ''}`, res, statusDefect(res))));
        },
      }),
      ...[false, ...(twinned ? [true] : [])].map((streamed) => defineCheck({
        id: streamed ? `${refusalCheckOf(name)}${STREAMED}` : refusalCheckOf(name),
        title: `\`${name}\` just beyond its bounds is refused with the spec's status and an error envelope${streamed ? ', sent with stream: true too (the same status and envelope, not a 200 stream)' : ''}`,
        ...gradeOf(rule),
        specRefs: [`objects.chat_completion_request.fields.${name}`, `rules.${rule.id}`, ...perModelRules(spec, expr)],
        appliesTo: currentModels,
        async run(ctx) {
          const p = probes(ctx);
          if ('skip' in p) return skip(p.skip, 'inconclusive');
          // A refusal shows a bound only where a valid value is accepted: the control, sent with the
          // probes (no round trip waits on another; the accepted check shares its answer).
          const valid = p.inside[0]!;
          const control = acceptanceOf(ctx, request(ctx, valid.value), twinned && valid.long === true);
          // Awaited below, or not at all where a probe ends the check first (blocked): never an unhandled rejection.
          control.catch(() => undefined);
          const judged = await Promise.all(p.outside.map((probe) => judgeProbe(ctx, request(ctx, probe.value), `\`${name}\` = ${probe.label}`, rule, streamed, twinned, refusalCheckOf(name))));
          const failures = judged.flat();
          if (failures.length > 0) return (await settled(control), { verdict: 'fail', failures });
          const { res, accepted } = await control;
          if (!accepted) return handOff(acceptanceCheckOf(name), failure(`a valid value, \`${name}\` = ${valid.label}, is refused too (HTTP ${res.status}): refusing the values beyond the bounds shows no bound`, res, statusDefect(res)));
          return pass();
        },
      })),
    );
  }
  return checks;
}

/**
 * Whether a valid value is accepted. A value that may ask for a long generation (`streamed`: a
 * per-model output maximum, `max_tokens` 384000) is asked as a stream, judged on its status and
 * first event, then closed: an endpoint serving one request at a time (`transformers serve`) would
 * make every other request wait for it. Any other value (the largest `top_logprobs` among them: its
 * answer is as long as `max_tokens` 32 lets it be) is asked as it is. Unstreamed too where the run
 * leaves streams out (`--without streaming`). Shared (one answer) by the acceptance check and the
 * refusal checks' control.
 */
async function acceptanceOf(ctx: CheckContext, request: CheckRequest, streamed: boolean): Promise<{ res: CheckResponse; accepted: boolean; errorEvent?: string }> {
  const streamedTwin = streamed ? streamedTwinOf(request) : undefined;
  // Left out of the run (`--without streaming`): the request is what the runner would not send.
  const twin = streamedTwin !== undefined && leftOutByRequest(ctx.spec, ctx.options.without ?? [], streamedTwin.body) === undefined ? streamedTwin : undefined;
  if (twin === undefined) {
    const { res } = await sample(ctx, request);
    return { res, accepted: res.status === 200 };
  }
  const { res, first } = await sample(ctx, twin, 'head');
  const errorEvent = first === undefined ? undefined : errorObjectIn(first.data);
  return { res, accepted: res.status === 200 && errorEvent === undefined, ...(errorEvent ? { errorEvent } : {}) };
}


/**
 * A value beyond a bound judged as a refusal: unstreamed, or (`streamed`) its twin with `stream:
 * true`, judged beside the unstreamed answer; where the field's check has a twin, both are asked
 * together (askTwins), whichever check comes first.
 */
async function judgeProbe(ctx: CheckContext, request: CheckRequest, what: string, rule: Rule, streamed: boolean, twinned: boolean, unstreamedCheck: string): Promise<Failure[]> {
  const twin = twinned ? streamedTwinOf(request) : undefined;
  if (twin === undefined) return judgeRefusal(ctx, (await sample(ctx, request)).res, rule.expect, what);
  const { plain, streamed: asked } = askTwins(ctx, request, twin);
  if (!streamed) {
    const failures = await judgeRefusal(ctx, (await plain).res, rule.expect, what);
    return (await settled(asked), failures);
  }
  const [seen, unstreamed] = await Promise.all([asked, plain.catch(() => undefined)]);
  return judgeStreamedRefusal(ctx, seen, unstreamed?.res, rule.expect, what, unstreamedCheck);
}
