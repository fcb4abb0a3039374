import type { Condition, Model, Rule, Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckRequest, CheckResponse } from '../context.ts';
import { defineCheck, gradeOf, type Check } from '../define.ts';
import { get, isObject, readJson, type Json } from '../support/body.ts';
import { inconclusive } from '../support/cooperation.ts';
import { handOffOnModel, ownerFor, shapeHandOff } from '../support/handoff.ts';
import { buildForRule } from '../support/build.ts';
import { failure, outcomeOf, pass, skip, statusDefect, unsupported } from '../support/outcome.ts';
import { legacyRulesStand } from '../support/retirement.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { askTwins, carriesStream, STREAMED, streamedTwinOf, judgeStreamedRefusal } from '../support/streamedRefusal.ts';
import { brokeOff, endedUnfinished, NO_CHUNK_READ, readStream, type ReadStream } from '../support/stream.ts';
import { sample, settled } from '../support/samples.ts';
import { cutOff, refusedForParameters, withRoom } from '../support/premises.ts';
import { EFFECTS, type Effect } from './effects.ts';

/** Models a rule is about: the one it names, a kind, the models serving its endpoint's feature. */
function appliesTo(rule: Rule, spec: Spec): (m: Model, id: string) => boolean {
  const named = rule.when.find((c) => c.model)?.model;
  if (named) return (_m, id) => id === named;
  const kind = rule.applies_to_models?.kind ?? 'current';
  const feature = rule.endpoint === 'fim_completions' ? 'fim' : rule.when.some((c) => c.last_message?.prefix !== undefined) ? 'prefix_completion' : undefined;
  return (m) => m.kind === kind && (feature === undefined || (Array.isArray(m.features) && m.features.includes(feature)));
}

/** One check per rule of rules.yaml: a request meeting its conditions, judged by its expectation. */
/**
 * Why a rule gets no check of its own: another check enforces it (bounds: request.*; retirement:
 * lifecycle.*), or the description states no answer of the service to judge.
 */
export function delegatedTo(rule: Rule): string | undefined {
  if (rule.when.some((c) => c.out_of_bounds || c.above)) return 'request.*.refused-beyond-bounds';
  if (rule.when.some((c) => c.after || c.model_kind)) return 'lifecycle.*.state-at-reference-time';
  if (rule.strength === 'unspecified' && rule.expect.status_unspecified) return 'nothing: the rule binds clients, and the service\'s answer is not shown';
  return undefined;
}

/**
 * Rules whose effect a stream shows as well as a body are judged again on the message a stream adds
 * up to. Left out: rules a stream check of its own judges (stream.assembled.*, stream.reasoning.*),
 * and effects judged on acceptance alone.
 */
const JUDGED_BY_STREAM_CHECKS = new Set(['chat.stop.not-in-output', 'chat.max-tokens.length', 'chat.tools.finish-reason-tool-calls', 'chat.thinking.enabled-carries-reasoning', 'chat.thinking.disabled-no-reasoning']);

function streamsToo(spec: Spec, rule: Rule): boolean {
  if (isRefusal(rule)) return refusalStreamsToo(spec, rule);
  const effect = rule.expect.effect ? EFFECTS[rule.expect.effect] : undefined;
  return rule.endpoint === 'chat_completions' && !!effect?.judge && !effect.cannotJudge && !JUDGED_BY_STREAM_CHECKS.has(rule.id);
}

/**
 * A refusal is sent streamed too wherever its request can carry `stream: true`: its endpoint's
 * request has the field, and no case is a body that is not JSON or a `stream` value of its own.
 */
function refusalStreamsToo(spec: Spec, rule: Rule): boolean {
  const cases = [rule.when, ...(rule.also_when ?? [])];
  return carriesStream(spec, rule.endpoint) && cases.every((when) => when.every((c) => c.body === undefined && c.field?.split('.')[0] !== 'stream'));
}

/** The message a stream adds up to, as the completion body the effects read. */
function asCompletion(m: ReadStream['message']): Json {
  const tool_calls = m.toolCalls.map((c) => ({ ...(c.id === undefined ? {} : { id: c.id }), type: 'function', function: { name: c.name.text, arguments: c.arguments.text } }));
  const message = { role: 'assistant', content: m.content.text, reasoning_content: m.reasoning.chars > 0 ? m.reasoning.text : null, ...(tool_calls.length > 0 ? { tool_calls } : {}) };
  return { choices: [{ index: 0, message, finish_reason: m.finishReason }], ...(isObject(m.usage) ? { usage: m.usage } : {}) };
}

export function ruleChecks(spec: Spec): Check[] {
  const rules = spec.rules.filter((rule) => delegatedTo(rule) === undefined);
  return [...rules.map((rule) => ruleCheck(spec, rule, false)), ...rules.filter((rule) => streamsToo(spec, rule)).map((rule) => ruleCheck(spec, rule, true))];
}

function ruleCheck(spec: Spec, rule: Rule, streamed: boolean): Check {
  const twinned = isRefusal(rule) && refusalStreamsToo(spec, rule);
  return defineCheck({
      id: streamed ? `rule.${rule.id}${STREAMED}` : `rule.${rule.id}`,
      title: streamed ? `${rule.statement} (streamed: ${isRefusal(rule) ? 'sent with stream: true, refused with the same status and error envelope, not a 200 stream' : 'judged on the message the chunks add up to'})` : rule.statement,
      ...gradeOf(rule),
      specRefs: [`rules.${rule.id}`],
      appliesTo: appliesTo(rule, spec),
      // A rule that expects acceptance and no effect is judged by the status (judgeCase).
      ...(rule.expect.accepted === true && rule.expect.effect === undefined ? { judges: 'status' as const } : {}),
      async run(ctx) {
        const standing = await legacyRulesStand(ctx);
        if (standing) return standing;
        // Every case of the rule is sent: a server may keep the first and break the second.
        const cases = [rule.when, ...(rule.also_when ?? [])];
        // A refusal is credited only where a valid request to the same endpoint is accepted: the
        // control, sent with the cases (none waits on another).
        // It goes to the base the cases name (a rule about the beta base refuses there): a refusal
        // elsewhere is no control. A case sent away from a base (`base_not`) is controlled where it is valid.
        const valid = isRefusal(rule) ? buildForRule(ctx, rule, rule.when.filter((c) => c.base !== undefined)) : undefined;
        const control = valid !== undefined && !('skip' in valid) ? sample(ctx, valid.request) : undefined;
        const outcomes = await Promise.all(cases.map((when, i) => (isRefusal(rule) ? judgeRefusalCase(ctx, rule, when, streamed, twinned, label(i, cases.length)) : judgeCase(ctx, rule, when, streamed, label(i, cases.length)))));
        const merged = mergeCases(outcomes);
        if (merged.verdict !== 'pass' || control === undefined) return (await settled(control), merged);
        const seen = await control;
        if (seen.res.status !== 200) return inconclusive(`a valid request to the same endpoint is refused too (HTTP ${seen.res.status}): the refusal shows nothing of the rule`);
        return merged;
      },
    });
}

const label = (i: number, of: number) => (of > 1 ? `case ${i + 1} of ${of}: ` : '');

/**
 * One case of a refusal rule. Where the rule has a streamed twin, both twins are asked together
 * (askTwins), whichever check comes first: the twin adds no round trip and no control.
 */
async function judgeRefusalCase(ctx: CheckContext, rule: Rule, when: readonly Condition[], streamed: boolean, twinned: boolean, label: string): Promise<CheckOutcome> {
  const built = buildForRule(ctx, rule, when);
  if ('skip' in built) return skip(built.skip);
  const twin = twinned ? streamedTwinOf(built.request) : undefined;
  if (twin === undefined) return outcomeOf(await judgeRefusal(ctx, (await sample(ctx, built.request)).res, rule.expect, `${label}${rule.statement}`));
  const { plain, streamed: asked } = askTwins(ctx, built.request, twin);
  if (!streamed) {
    const failures = await judgeRefusal(ctx, (await plain).res, rule.expect, `${label}${rule.statement}`);
    return (await settled(asked), outcomeOf(failures));
  }
  const [seen, unstreamed] = await Promise.all([asked, plain.catch(() => undefined)]);
  return outcomeOf(await judgeStreamedRefusal(ctx, seen, unstreamed?.res, rule.expect, `${label}${rule.statement}`, `rule.${rule.id}`));
}

const isRefusal = (rule: Rule) => rule.expect.status !== undefined || rule.expect.status_any_of !== undefined || rule.expect.error === true;

/** The cases of a rule as one outcome: any failure fails it (every case's failures kept); else the first case that judged nothing; else a pass. */
function mergeCases(outcomes: CheckOutcome[]): CheckOutcome {
  const failures = outcomes.flatMap((o) => (o.verdict === 'fail' ? o.failures : []));
  if (failures.length > 0) return { verdict: 'fail', failures };
  const first = outcomes[0];
  return outcomes.find((o) => o.verdict !== 'pass') ?? (first?.verdict === 'pass' && outcomes.length > 1 ? { ...first, cases: outcomes.length } : (first ?? pass()));
}

/** One case of a rule that is not a refusal (a set of conditions): the request meeting it, judged by the rule's expectation. */
async function judgeCase(ctx: CheckContext, rule: Rule, when: readonly Condition[], streamed: boolean, label: string): Promise<CheckOutcome> {
  const built = buildForRule(ctx, rule, when);
  if ('skip' in built) return skip(built.skip);
  const effect = rule.expect.effect ? EFFECTS[rule.expect.effect] : undefined;
  if (rule.expect.effect && !effect) return skip(`effect \`${rule.expect.effect}\` has no judge in the harness yet`);
  // An answer whose content is judged is asked for with room, so that it is not cut off.
  const request = effect?.judge && !effect.judgesCut ? withRoom(built.request) : built.request;
  effect?.prepare?.(request, ctx);
  // The control and the request go together: the control is built from the request, not from its answer.
  const controlled = effect?.control ? sample(ctx, effect.control(request)) : undefined;
  if (streamed) request.body = { ...(request.body as Json), stream: true };
  // Asked through the run's store: the same request asked by another check (the same case of a rule
  // for another model, when it names none; a control) is one answer. A stream is read by this check alone.
  const sent = streamed ? ctx.send(request) : sample(ctx, request).then((seen) => seen.res);
  sent.catch(() => undefined); // a rejection while the control is awaited is handled where `sent` is awaited or settled
  let control: Json | undefined;
  // The control's premise comes first, unless only a pass needs it (a failure shows without it).
  if (effect && controlled && !effect.passNeedsControl) {
    const shown = await controlShows(effect, controlled);
    if ('outcome' in shown) return (await settled(sent), shown.outcome);
    control = shown.control;
  }
  const outcome = await judgeAnswer(ctx, rule, when, streamed, label, request, effect, await sent, control);
  if (effect?.passNeedsControl && controlled) {
    if (outcome.verdict !== 'pass') return (await settled(controlled), outcome);
    const shown = await controlShows(effect, controlled);
    if ('outcome' in shown) return shown.outcome;
  }
  return outcome;
}

/** What the control answer shows: the body the effect is judged beside, or why the effect cannot be seen. */
async function controlShows(effect: Effect, controlled: ReturnType<typeof sample>): Promise<{ control: Json } | { outcome: CheckOutcome }> {
  const seen = await controlled;
  if (seen.res.status !== 200 || !isObject(seen.body)) return { outcome: inconclusive(`the control request was answered HTTP ${seen.res.status}${seen.unreadable === undefined ? '' : ` (${seen.unreadable})`}, so the effect cannot be seen`) };
  const why = effect.premise?.(seen.body);
  return why ? { outcome: inconclusive(why) } : { control: seen.body };
}

/** The answer to one case of a rule that is not a refusal, judged by the effect it names (or its acceptance). */
async function judgeAnswer(ctx: CheckContext, rule: Rule, when: readonly Condition[], streamed: boolean, label: string, request: CheckRequest, effect: Effect | undefined, res: CheckResponse, control: Json | undefined): Promise<CheckOutcome> {
  let body: unknown;
  let unreadable = '';
  if (streamed && res.status === 200) {
    const stream = await readStream(res);
    if (stream.error !== undefined) return outcomeOf([failure(brokeOff(stream), res)]);
    if (stream.chunks === 0 && effect?.judge) return inconclusive(NO_CHUNK_READ);
    const unfinished = effect?.judge ? endedUnfinished(stream, res) : undefined;
    if (unfinished) return unfinished;
    body = asCompletion(stream.message);
  } else {
    const read = await readJson(res);
    if (read.ok) body = read.body;
    else unreadable = `: ${read.why}`;
  }
  if (res.status !== 200) {
    if (res.status === 404 && request.base === 'beta') return unsupported('the beta base answered 404: the feature is not served here');
    // Refused for a parameter the rule needs: that parameter's acceptance is another check's finding.
    const fields = [...new Set(when.flatMap((c) => (c.field === undefined ? [] : [c.field.split('.')[0]!])))].filter((f) => isObject(request.body) && f in request.body);
    const refusedFor = await refusedForParameters(ctx, request, res, fields);
    if (refusedFor) return refusedFor;
    return outcomeOf([failure(`${label}expected the request to be accepted, got HTTP ${res.status}`, res, statusDefect(res))]);
  }
  if (!isObject(body)) return outcomeOf([failure(`${label}accepted, but the body is not a JSON object${unreadable}`, res)]);
  if (!effect) return pass();
  if (effect.cannotJudge) return pass(effect.cannotJudge);
  // What the answer says is in its message: an answer without one shows nothing of the effect.
  if (effect.judge && !isObject(get(body, 'choices', 0, 'message'))) return shapeHandOff(ctx, 'chat_completion', res, body, `${label}the completion carries no message (choices[0].message) whose content could be judged`, '/choices/0/message');
  // A verdict on what the answer says needs an answer that was not cut off (the max_tokens rule itself
  // judges the cut), before what it lacks: a call cut off is no call missing, and no other check's defect.
  const cut = effect.judgesCut || effect.shownWhenCut ? undefined : cutOff(body);
  if (cut) return inconclusive(cut);
  const missing = effect.needs?.(body);
  if (typeof missing === 'string') return inconclusive(missing);
  if (missing) return handOffOnModel(ownerFor(missing.owner, streamed), failure(`${label}${missing.what}`, res));
  const failures = effect.judge?.(body, res, request, ctx, control) ?? [];
  const shownNothing = failures.length === 0 ? effect.passNeeds?.(body, control) : undefined;
  return shownNothing ? inconclusive(shownNothing) : outcomeOf(failures);
}
