import type { ClassCoverage, Failure } from '#harness/core/outcome.ts';
import { breakableRules } from '#harness/derive/arbitraries/index.ts';
import { coverageClasses, operationOf, type CoverageClass, type UnsendableClass } from '#harness/derive/arbitraries/coverageClasses.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckRequest } from '../context.ts';
import { currentModels, defineCheck, fimModels, messagesModels, type Check } from '../define.ts';
import { refusalOwner } from '../request/bounds.ts';
import { delegatedTo } from '../rule/rules.ts';
import { wrongTypeValue } from '../support/build.ts';
import { inconclusive } from '../support/cooperation.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { chat, fim, messagesRequest } from '../support/requests.ts';
import { sample, settled } from '../support/samples.ts';
import { askTwins, carriesStream, STREAMED, streamedTwinOf, judgeStreamedRefusal } from '../support/streamedRefusal.ts';
import { pass, skip } from '../support/outcome.ts';

export const INVALID_CLASSES_ID = 'property.invalid-classes.refused-with-spec-status';
const CHAT_ENDPOINT = 'chat_completions';

/**
 * The operations the coverage phase covers, one check each: the smallest valid request for the
 * model (every class breaks it; its acceptance is the refusal's control, one answer with the checks
 * that judge it), the models it runs on, and the requests it sends per model at most.
 *
 * The caps keep a full default run at 800 ms within 20 s (docs/performance.md): each request is a
 * round trip. The chat request's classes go on every current model; the other formats' once (FIM on
 * the models that have it, the messages format on its default model, as its checks run). Classes
 * past a cap are named in the report as not sent.
 */
export const COVERED_OPERATIONS: readonly CoveredOperation[] = [
  { id: INVALID_CLASSES_ID, endpoint: CHAT_ENDPOINT, what: 'chat request', request: (ctx) => chat(ctx), appliesTo: currentModels, cap: 26 },
  { id: 'property.invalid-fim-classes.refused-with-spec-status', endpoint: 'fim_completions', what: 'fill-in-the-middle request', request: (ctx) => fim(ctx), appliesTo: fimModels, cap: 8 },
  { id: 'property.invalid-messages-classes.refused-with-spec-status', endpoint: 'messages', what: 'messages-format request', request: (ctx) => messagesRequest(ctx), appliesTo: (m) => messagesModels(m) && m.default, cap: 8 },
];

interface CoveredOperation {
  id: string;
  endpoint: string;
  what: string;
  request(ctx: CheckContext): CheckRequest;
  appliesTo: Check['appliesTo'];
  cap: number;
}

/** The chat operation's cap: what the random phase's counterexamples are attributed against. */
export const COVERAGE_REQUESTS = COVERED_OPERATIONS.find((o) => o.endpoint === CHAT_ENDPOINT)!.cap;

/**
 * The order of the first classes, one per kind and field: the body itself, then the top-level
 * fields (what a gateway reads to route), then values off a nested list, nested fields missing, and
 * nested fields of a wrong type; the spec's order within each.
 */
const rank = (c: CoverageClass): number => (c.kind === 'body' ? 0 : !c.field.includes('.') ? 1 : c.kind === 'enum' ? 2 : c.kind === 'required' ? 3 : 4);

/**
 * The check that already sends a class, when one does: a top-level bound or list (the field's
 * refused-beyond-bounds check), a cross-field rule (its rule check), a required field or a wrong
 * type a rule names as a case (that rule's check, with the value its builder writes).
 */
function ownerOf(spec: Spec, c: Pick<CoverageClass, 'id' | 'kind' | 'field' | 'ruleId'>, endpoint: string): string | undefined {
  const top = !c.field.includes('.');
  // The bound checks are of the chat request's fields; a rule's check sends its cases to the rule's endpoint only.
  if ((c.kind === 'bound' || c.kind === 'enum') && top) return endpoint === CHAT_ENDPOINT ? refusalOwner(spec, c.field) : undefined;
  const rule = spec.rules.find((r) => r.id === c.ruleId);
  if (!rule || rule.endpoint !== endpoint || delegatedTo(rule) !== undefined) return undefined;
  if (c.kind === 'rule') return `rule.${rule.id}`;
  const cases = [rule.when, ...(rule.also_when ?? [])];
  if (c.kind === 'required' && cases.some((w) => w.some((x) => x.field === c.field && x.present === false))) return `rule.${rule.id}`;
  if (c.kind === 'type' && top && cases.some((w) => w.some((x) => x.field === c.field && x.wrong_type === true))) {
    const written = wrongTypeValue(spec.objects.chat_completion_request?.fields[c.field]);
    if (c.id.endsWith(` ${jsonTypeOf(written)}`)) return `rule.${rule.id}`;
  }
  return undefined;
}

/** A value's JSON type as the classes name it (`integer` apart from `number`). */
const jsonTypeOf = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);

/**
 * What this run sends of the classes: first one class per kind and field (every field and every
 * kind get a request), then the rest in the spec's order, up to the cap. Classes another check
 * sends are counted there; advisory ones (a value the spec leaves open) are not sent by a must check.
 */
export function planClasses(spec: Spec, classes: readonly CoverageClass[], unsendable: readonly UnsendableClass[], cap = COVERAGE_REQUESTS, endpoint = CHAT_ENDPOINT): { send: CoverageClass[]; coverage: ClassCoverage } {
  const elsewhere = new Map<string, string[]>();
  const notSent: ClassCoverage['notSent'] = [];
  for (const u of unsendable) {
    const owner = ownerOf(spec, u, endpoint);
    if (owner) elsewhere.set(owner, [...(elsewhere.get(owner) ?? []), u.id]);
    else notSent.push({ class: u.id, why: u.why });
  }
  const candidates: CoverageClass[] = [];
  const covered = new Set<string>();
  for (const c of classes) {
    const owner = ownerOf(spec, c, endpoint);
    if (owner) {
      elsewhere.set(owner, [...(elsewhere.get(owner) ?? []), c.id]);
      covered.add(`${c.kind} ${c.field}`);
    } else if (c.strength !== 'must') notSent.push({ class: c.id, why: 'its validity is left open by the description (null may stand for "not set"): at most advisory, not sent by a must check' });
    else candidates.push(c);
  }
  // A null is a wrong type of its own only where nullability is stated; it waits behind every field's first class.
  const first = candidates.filter((c) => c.kind !== 'null' && !covered.has(`${c.kind} ${c.field}`) && (covered.add(`${c.kind} ${c.field}`), true)).sort((a, b) => rank(a) - rank(b));
  const rest = candidates.filter((c) => !first.includes(c));
  const ordered = [...first, ...rest];
  const send = ordered.slice(0, cap);
  for (const c of ordered.slice(cap)) notSent.push({ class: c.id, why: `beyond the ${cap} requests per model the coverage phase sends here` });
  return {
    send,
    coverage: { operation: endpoint, named: classes.length + unsendable.length, sent: send.length, elsewhere: [...elsewhere].map(([check, ids]) => ({ check, classes: ids })), notSent },
  };
}

/**
 * The coverage phase, one check per operation: every class of invalid request the spec names for
 * it, made concrete once and sent, each judged as the random phase judges its values (the status its rule names, 400 or 422
 * where it names both, and a well-formed envelope). A refusal is credited only where the smallest
 * valid request is accepted (the control), and so is a failure; a failure is one per class, with its request.
 */
export function invalidClassesChecks(spec: Spec): Check[] {
  const covered = COVERED_OPERATIONS.filter((o) => spec.endpoints[o.endpoint]?.request);
  // Where the operation's request can carry `stream`, its classes are sent streamed too: a twin check.
  return [...covered.map((o) => invalidClassesCheck(spec, o, false)), ...covered.filter((o) => carriesStream(spec, o.endpoint)).map((o) => invalidClassesCheck(spec, o, true))];
}

/** A class's streamed twin, unless it cannot carry `stream: true` (a body that is not an object; a break of `stream` itself). */
const twinOf = (base: CheckRequest, c: CoverageClass): CheckRequest | undefined => (c.field.split('.')[0] === 'stream' ? undefined : streamedTwinOf({ ...base, ...c.request }));

function invalidClassesCheck(spec: Spec, o: CoveredOperation, streamed: boolean): Check {
  const operation = operationOf(spec, o.endpoint);
  const twinned = carriesStream(spec, o.endpoint);
  return defineCheck({
    id: streamed ? `${o.id}${STREAMED}` : o.id,
    title: `each class of invalid ${o.what} the spec names (a required field missing, a wrong JSON type, a value off a list or beyond a bound, a broken rule, a body that is not an object) is refused with the status its rule names and an error envelope${streamed ? ', sent with stream: true too (the same status and envelope, not a 200 stream)' : ''}`,
    severity: 'must',
    basis: 'stated',
    specRefs: specRefsOf(spec, o),
    appliesTo: o.appliesTo,
    async run(ctx) {
      const base = o.request(ctx);
      const { classes, unsendable } = coverageClasses(ctx.spec, { model: ctx.model, sentAs: ctx.targetModel }, base.body as Record<string, unknown>, operation);
      const { send, coverage } = planClasses(ctx.spec, classes, unsendable, ctx.options.coverage ?? o.cap, o.endpoint);
      if (send.length === 0) return skip(`--coverage ${ctx.options.coverage ?? o.cap}: the coverage phase sends no class of this operation`, 'not-applicable');
      const sent = streamed ? send.filter((c) => twinOf(base, c) !== undefined) : send;
      if (sent.length === 0) return skip('no class sent of this operation can carry `stream: true`', 'not-applicable');
      // The control goes with the classes: no round trip waits on another. The twins share it, and
      // each class goes with its twin (askTwins), whichever of the two checks asks first.
      const control = sample(ctx, base);
      const judged = await Promise.all(sent.map((c) => judgeClass(ctx, base, c, streamed, twinned ? twinOf(base, c) : undefined, o.id)));
      // What the classes were answered is about them only where the smallest valid request is
      // accepted: refused (or failing) too, neither a refusal nor a 500 shows anything of a class.
      const { res } = await control;
      if (res.status !== 200) return inconclusive(`the smallest valid request is answered HTTP ${res.status} too: what ${send.length} invalid ones were answered shows nothing of them`);
      const failures = judged.flat();
      const counted = streamed ? twinCoverage(coverage, send, sent) : coverage;
      return failures.length > 0 ? { verdict: 'fail', failures, classes: counted } : { ...pass(undefined, sent.length), classes: counted };
    },
  });
}

/** The twin's coverage: what it sent, and the classes sent unstreamed that cannot carry `stream`, named as not sent. */
function twinCoverage(coverage: ClassCoverage, send: readonly CoverageClass[], sent: readonly CoverageClass[]): ClassCoverage {
  const unstreamable = send.filter((c) => !sent.includes(c)).map((c) => ({ class: c.id, why: 'it cannot carry `stream: true` (a body that is not an object, or a break of `stream` itself)' }));
  return { ...coverage, sent: sent.length, notSent: [...unstreamable, ...coverage.notSent] };
}

/**
 * One class judged: unstreamed, or (`streamed`) its twin, judged beside the unstreamed answer. Both
 * are asked together through the run's store where the class has a twin, so the two checks send each once.
 */
async function judgeClass(ctx: CheckContext, base: CheckRequest, c: CoverageClass, streamed: boolean, twin: CheckRequest | undefined, unstreamedCheck: string): Promise<Failure[]> {
  const request = { ...base, ...c.request };
  const expect = c.statuses ? { status_any_of: c.statuses } : { error: true as const };
  const what = `${c.what}, which breaks ${c.ruleId}`;
  let failures: Failure[];
  if (twin === undefined) failures = await judgeRefusal(ctx, (await sample(ctx, request)).res, expect, what);
  else {
    const { plain, streamed: asked } = askTwins(ctx, request, twin);
    if (streamed) {
      const [seen, unstreamed] = await Promise.all([asked, plain.catch(() => undefined)]);
      failures = await judgeStreamedRefusal(ctx, seen, unstreamed?.res, expect, what, unstreamedCheck);
    } else {
      failures = await judgeRefusal(ctx, (await plain).res, expect, what);
      await settled(asked);
    }
  }
  const pointer = c.path === '' ? '' : `/${c.path.split('.').join('/')}`;
  return failures.map((f) => ({ ...f, path: f.path ?? pointer, specRef: f.specRef ?? `rules.${c.ruleId}`, ...(f.defect?.kind === 'status' ? { defect: { ...f.defect, sent: c.id } } : {}) }));
}

/** The rules the classes fall under, on the models the check runs on. */
function specRefsOf(spec: Spec, o: CoveredOperation): string[] {
  const operation = operationOf(spec, o.endpoint);
  const models = Object.entries(spec.models).filter(([id, m]) => o.appliesTo(m, id)).map(([id]) => id);
  return [...new Set(models.flatMap((model) => breakableRules(spec, { model }, operation)))].map((id) => `rules.${id}`);
}
