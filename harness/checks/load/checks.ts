import type { Failure } from '#harness/core/outcome.ts';
import type { Basis, LooseEntry, Spec, Strength } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome } from '../context.ts';
import { currentModels, defineCheck, entryFor, gradeOf, type Check } from '../define.ts';
import { get, isObject } from '../support/body.ts';
import { handOffOnModel } from '../support/handoff.ts';
import { failure, outcomeOf, pass, skip } from '../support/outcome.ts';
import { driveLoad, LOAD_PROMPT_WORDS, type DrivenExchange, type DrivenLoad } from './drive.ts';

/** The rules the load checks are built on: spec/limits.yaml, rate_limits.under_load. */
type UnderLoadRule = LooseEntry & { statement: string; strength: Strength; basis: Basis };

function ruleOf(spec: Spec, rule: string, checkId: string): UnderLoadRule {
  const entry = get(spec.rate_limits, 'under_load', rule);
  return entryFor(isObject(entry) && typeof entry.statement === 'string' ? (entry as UnderLoadRule) : undefined, checkId, `rate_limits.under_load.${rule}`);
}

/** The statuses a request refused under load may get (429, and 503 at peak): spec/limits.yaml. */
function refusalStatuses(spec: Spec): number[] {
  const statuses = get(spec.rate_limits, 'under_load', 'refusal_statuses');
  return Array.isArray(statuses) ? statuses.filter((s): s is number => typeof s === 'number') : [];
}

/** At most this many failures per check: one per kind of defect, each counting how often it came. */
const MAX_KINDS = 5;

/** The requests sent with more than one in flight: the load the phase is about (step 0 is the rest it is compared with). */
const underLoad = (run: DrivenLoad) => run.exchanges.filter((x) => x.step > 0);
const atRest = (run: DrivenLoad) => run.exchanges.filter((x) => x.step === 0);
const where = (x: DrivenExchange) => `${x.stream ? 'a streamed' : 'a'} request with ${x.inFlight} in flight`;

/** Defects grouped by kind, the first of each kind as evidence with how many there were. */
function grouped(found: { kind: string; message: string; x: DrivenExchange }[]): Failure[] {
  const byKind = new Map<string, { message: string; x: DrivenExchange; count: number }>();
  for (const f of found) {
    const seen = byKind.get(f.kind);
    if (seen) seen.count += 1;
    else byKind.set(f.kind, { message: f.message, x: f.x, count: 1 });
  }
  return [...byKind.values()].slice(0, MAX_KINDS).map(({ message, x, count }) => failureOf(x, count > 1 ? `${message} (${count} requests like it)` : message));
}

function failureOf(x: DrivenExchange, message: string): Failure {
  return x.res ? failure(message, x.res) : { ...failure(message), evidence: x.exchange, ...(x.trouble ? { defect: { kind: 'transport', code: x.trouble.code, what: x.trouble.what } } : {}) };
}

type Judge = (run: DrivenLoad, ctx: CheckContext) => CheckOutcome | Promise<CheckOutcome>;

function loadCheck(spec: Spec, id: string, rule: string, title: string, judge: Judge): Check {
  const entry = ruleOf(spec, rule, id);
  return defineCheck({
    id,
    title,
    area: 'load',
    phase: 'load',
    ...gradeOf(entry),
    specRefs: [`rate_limits.under_load.${rule}`],
    appliesTo: currentModels,
    async run(ctx) {
      const load = ctx.load;
      if (load === undefined) return skip('the run has no load phase (run --load N)');
      const run = await load.run(() => driveLoad(ctx, load.n));
      if (underLoad(run).length === 0) return skip(`inconclusive: no request was sent under load: ${run.endedEarly ?? 'the phase held one in flight only'}`, 'inconclusive');
      return judge(run, ctx);
    },
  });
}

/** Every way a request under load was not served, and whether the description allows it. */
const excessRefused: Judge = (run, ctx) => {
  const allowed = refusalStatuses(ctx.spec);
  const found: { kind: string; message: string; x: DrivenExchange }[] = [];
  let refused = 0;
  for (const x of underLoad(run)) {
    if (x.trouble?.kind === 'no-answer') found.push({ kind: `no-answer ${x.trouble.code}`, message: `${where(x)} got no HTTP answer (${x.trouble.code}: ${x.trouble.what}); the description refuses excess requests with ${allowed.join(' or ')}`, x });
    else if (x.trouble?.kind === 'cut' && !x.stream) found.push({ kind: `cut ${x.trouble.code}`, message: `${where(x)} was answered ${x.status} and its body broke off (${x.trouble.code}); the description refuses excess requests with ${allowed.join(' or ')}`, x });
    else if (x.status === 200 && x.empty === true) found.push({ kind: 'empty 200', message: `${where(x)} was answered 200 with an empty body: neither a completion nor a refusal`, x });
    else if (x.status !== undefined && x.status !== 200) {
      if (!allowed.includes(x.status)) {
        found.push({ kind: `status ${x.status}`, message: `${where(x)} was answered HTTP ${x.status}; the description refuses excess requests with ${allowed.join(' or ')}`, x });
        continue;
      }
      refused += 1;
      const body = x.exchange.response?.body;
      const broken = body === undefined ? ['the body is not JSON'] : ctx.judge('error_envelope', body).filter((v) => v.level === 'must').map((v) => `${v.path || '/'}: ${v.message}`);
      if (broken.length > 0) {
        const type = x.exchange.response?.headers['content-type'] ?? 'no content-type';
        found.push({ kind: `envelope ${x.status}`, message: `${where(x)} was refused ${x.status} (${type}) without the error envelope: ${broken[0]}`, x });
      }
    }
  }
  if (found.length > 0) return outcomeOf(grouped(found));
  const n = underLoad(run).length;
  return pass(refused === 0 ? `all ${n} requests under load were served (none refused)` : `${refused} of ${n} requests under load were refused with ${allowed.join(' or ')} and the error envelope; the rest were served`, n);
};

/** Problems at rest, without the chunk they were found at: what the ordinary checks already judge. */
const problemKey = (p: string) => p.replace(/^chunk \d+: /, '');

const answersConform: Judge = (run) => {
  const baseline = (stream: boolean) => new Set(atRest(run).filter((x) => x.stream === stream && x.status === 200).flatMap((x) => x.problems.map(problemKey)));
  const rest = { true: baseline(true), false: baseline(false) };
  // Usage is reported at rest by every answer of a kind: an answer under load without it is a defect of the load.
  const usageAtRest = (stream: boolean) => atRest(run).some((x) => x.stream === stream && x.status === 200 && x.promptTokens !== undefined);
  const found: { kind: string; message: string; x: DrivenExchange }[] = [];
  let judged = 0;
  for (const x of underLoad(run)) {
    // A stream that did not end is streams.finished's to judge: only whole answers are compared here.
    if (x.status !== 200 || x.empty === true || x.trouble !== undefined || (x.finished !== undefined && !(x.finished.done && x.finished.finishReason))) continue;
    judged += 1;
    for (const p of x.problems) if (!rest[`${x.stream}`].has(problemKey(p))) found.push({ kind: problemKey(p), message: `${where(x)}: ${p} (the same request at rest meets it)`, x });
    if (x.promptTokens === undefined && usageAtRest(x.stream)) found.push({ kind: `no usage ${x.stream}`, message: `${where(x)} reported no usage, which the same request reports at rest`, x });
  }
  if (found.length > 0) return outcomeOf(grouped(found));
  if (judged === 0) return skip('inconclusive: no request under load was answered 200 in full, so no answer under load was judged', 'inconclusive');
  return pass(`${judged} answers under load meet what the same requests meet at rest`, judged);
};

/** The text of a completion body (JSON text or parsed), or undefined. */
const contentOf = (body: unknown): string | undefined => {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const c = get(parsed, 'choices', 0, 'message', 'content');
  return typeof c === 'string' && c !== '' ? c : undefined;
};

/**
 * A gateway run (the harness is the upstream, and each request carries its marker): exact. Each
 * answer under load is compared with what the upstream answered each request; one that is the
 * upstream's answer to another request, and not to its own, crossed.
 */
async function crossedThroughGateway(run: DrivenLoad, ctx: CheckContext): Promise<CheckOutcome | undefined> {
  const upstream = ctx.upstream;
  if (upstream === undefined) return undefined;
  const answered = underLoad(run).filter((x) => x.res !== undefined && x.status === 200 && !x.stream && x.trouble === undefined);
  const own = new Map<DrivenExchange, string | undefined>();
  const byContent = new Map<string, DrivenExchange>();
  for (const x of answered) {
    const sent = (await upstream.of(x.res!))?.filter((u) => u.response.status === 200).at(-1);
    const content = sent === undefined ? undefined : contentOf(sent.response.body);
    own.set(x, content);
    if (content !== undefined) byContent.set(content, x);
  }
  const found: { kind: string; message: string; x: DrivenExchange }[] = [];
  let judged = 0;
  for (const x of answered) {
    const got = contentOf(x.exchange.response?.body);
    if (got === undefined || own.get(x) === undefined) continue;
    judged += 1;
    const other = byContent.get(got);
    if (got !== own.get(x) && other !== undefined && other !== x) found.push({ kind: 'crossed', message: `${where(x)} for prompt ${x.prompt} was answered with what the upstream answered another request (prompt ${other.prompt}, sent at ${other.sentAt} ms)`, x });
  }
  if (found.length > 0) return outcomeOf(grouped(found));
  return judged === 0 ? undefined : pass(`${judged} answers under load each carried what the upstream answered its own request (paired by marker)`, judged);
}

const notCrossed: Judge = async (run, ctx) => {
  // Exact where the harness is the upstream (non-streamed answers); every answer is also held to its prompt's count below, streams too.
  const exact = await crossedThroughGateway(run, ctx);
  if (exact?.verdict === 'fail') return exact;
  const paired = exact?.verdict === 'pass' ? `; ${exact.note}` : '';
  // What each prompt counts at rest: one request at a time, so no answer can be another's.
  const counts = new Map<number, number>();
  for (const x of atRest(run)) if (x.status === 200 && x.promptTokens !== undefined) counts.set(x.prompt, x.promptTokens);
  if (counts.size === 0) return skip('inconclusive: no answer at rest reported usage.prompt_tokens, so what each prompt counts is unknown', 'inconclusive');
  const owners = new Map([...counts].map(([p, c]) => [c, p]));
  const found: { kind: string; message: string; x: DrivenExchange }[] = [];
  const unreported: DrivenExchange[] = [];
  let judged = 0;
  for (const x of underLoad(run)) {
    if (x.status !== 200 || x.trouble !== undefined || !counts.has(x.prompt)) continue;
    if (x.promptTokens === undefined) {
      unreported.push(x);
      continue;
    }
    judged += 1;
    const own = counts.get(x.prompt)!;
    if (x.promptTokens === own) continue;
    const other = owners.get(x.promptTokens);
    const whose = other === undefined ? 'no prompt of the phase counts that' : `that is what prompt ${other} (${LOAD_PROMPT_WORDS[other]} words) counts: its answer`;
    found.push({ kind: 'crossed', message: `${where(x)} for prompt ${x.prompt} (${LOAD_PROMPT_WORDS[x.prompt]} words, ${own} prompt tokens at rest) was answered with usage.prompt_tokens ${x.promptTokens}; ${whose}`, x });
  }
  if (found.length > 0) return outcomeOf(grouped(found));
  // Usage missing under load is what answers-conform judges; without it nothing here was judged.
  if (judged === 0 && unreported.length > 0) return handOffOnModel('load.answers.conform', failureOf(unreported[0]!, `inconclusive: ${unreported.length} answer(s) under load reported no usage.prompt_tokens, so whose answer each is cannot be told`));
  if (judged === 0) return skip('inconclusive: no request under load was answered 200 in full, so no answer was matched to its prompt', 'inconclusive');
  return pass(`${judged} answers under load each counted its own prompt's tokens${paired}`, judged);
};

const streamsFinished: Judge = (run) => {
  const unfinished = (x: DrivenExchange) => x.finished !== undefined && (!x.finished.finishReason || !x.finished.done);
  const began = (x: DrivenExchange) => x.stream && x.status === 200 && x.empty !== true && x.trouble?.kind !== 'hung';
  // Streams that do not end at rest either are the stream checks' defect, not the load's.
  const restUnfinished = atRest(run).filter((x) => began(x) && (unfinished(x) || x.trouble?.kind === 'cut'));
  const found: { kind: string; message: string; x: DrivenExchange }[] = [];
  let judged = 0;
  for (const x of underLoad(run).filter(began)) {
    judged += 1;
    if (x.trouble?.kind === 'cut') found.push({ kind: 'cut', message: `${where(x)}: the stream broke off (${x.trouble.code}: ${x.trouble.what})`, x });
    else if (unfinished(x)) found.push({ kind: 'unfinished', message: `${where(x)}: the stream ended with ${x.finished!.finishReason ? 'a finish_reason' : 'no finish_reason'} and ${x.finished!.done ? '`[DONE]`' : 'no `[DONE]`'}`, x });
  }
  if (found.length > 0 && restUnfinished.length > 0) return handOffOnModel('stream.events.done-last', ...grouped(found));
  if (found.length > 0) return outcomeOf(grouped(found));
  if (judged === 0) return skip('inconclusive: no stream under load began (every streamed request was refused or got no answer)', 'inconclusive');
  return pass(`${judged} streams under load each ended with a finish_reason and \`[DONE]\``, judged);
};

const noneHung: Judge = (run) => {
  const all = [...run.exchanges, ...(run.recovery?.tries ?? [])];
  const hung = all.filter((x) => x.trouble?.kind === 'hung');
  if (hung.length > 0) return outcomeOf(grouped(hung.map((x) => ({ kind: `hung ${x.step}`, message: `${where(x)} was not answered within the run's deadlines (${x.trouble!.code}: ${x.trouble!.what})`, x }))));
  const answered = all.filter((x) => x.endMs !== undefined && x.trouble === undefined);
  const slowest = Math.max(0, ...answered.map((x) => x.endMs!));
  return pass(`all ${all.length} requests of the phase were answered; the slowest took ${slowest} ms`, all.length);
};

const recovers: Judge = (run) => {
  const r = run.recovery;
  if (r === undefined) return skip(`inconclusive: the phase did not reach its peak: ${run.endedEarly ?? 'it ended early'}`, 'inconclusive');
  if (!atRest(run).some((x) => x.status === 200)) return skip('inconclusive: no request at rest was answered 200 before the load, so there is no 200 to come back to', 'inconclusive');
  if (r.recoveredMs !== undefined) return pass(`answered 200 again ${r.recoveredMs} ms after the peak (within ${r.windowMs} ms), after ${r.tries.length} try(ies)`, r.tries.length);
  const last = r.tries.at(-1);
  // A try that got no answer in time is a request hung: that check's defect, which left this one unjudged.
  const hung = r.tries.find((x) => x.trouble?.kind === 'hung');
  if (hung !== undefined) return handOffOnModel('load.requests.none-hung', failureOf(hung, `inconclusive: a request after the peak was not answered within the run's deadlines (${hung.trouble!.code}), so whether the endpoint recovers within ${r.windowMs} ms cannot be seen`));
  if (last?.trouble?.kind === 'stopped') return skip(`inconclusive: the run stopped while waiting for the endpoint to recover: ${last.trouble.what}`, 'inconclusive');
  const got = last?.status !== undefined ? `HTTP ${last.status}` : `no answer (${last?.trouble?.code ?? 'none'})`;
  return outcomeOf([failureOf(last!, `after the peak the endpoint did not answer 200 within ${r.windowMs} ms (${r.tries.length} tries at rest; the last got ${got})`)]);
};

export function loadChecks(spec: Spec): Check[] {
  return [
    loadCheck(spec, 'load.answers.conform', 'answers-conform', 'Under load, every answer meets what the same request meets at rest', answersConform),
    loadCheck(spec, 'load.excess.refused-as-described', 'excess-refused', 'Under load, a request not served is refused with 429 (or 503) and the error envelope', excessRefused),
    loadCheck(spec, 'load.answers.not-crossed', 'answers-not-crossed', 'Under load, each answer is the answer to its own request', notCrossed),
    loadCheck(spec, 'load.streams.finished', 'streams-finished', 'Under load, every stream that began ends with a finish_reason and [DONE]', streamsFinished),
    loadCheck(spec, 'load.requests.none-hung', 'no-request-hung', 'Under load, every request is answered within the deadlines', noneHung),
    loadCheck(spec, 'load.endpoint.recovers', 'recovers', 'After the peak, the endpoint answers 200 again within Retry-After', recovers),
  ];
}
