import type { Failure } from '#harness/core/outcome.ts';
import type { Basis, LooseEntry, Spec, Strength } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome } from '../context.ts';
import { currentModels, defineCheck, entryFor, gradeOf, type Check } from '../define.ts';
import { get, isObject } from '../support/body.ts';
import { handOffOnModel } from '../support/handoff.ts';
import { foldSse } from '#harness/core/sseFold.ts';
import { failure, outcomeOf, pass, skip } from '../support/outcome.ts';
import type { Breach } from '../answer/breach.ts';
import { recoveryWindowText, type DrivenExchange, type DrivenLoad } from './run.ts';
import { waitDefect } from '#harness/core/waitDefect.ts';

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
    phase: 'load',
    ...gradeOf(entry),
    specRefs: [`rate_limits.under_load.${rule}`],
    appliesTo: currentModels,
    async run(ctx) {
      // The run the runner drove on this model: judged here, never driven.
      const run = ctx.load?.run;
      if (run === undefined) return skip('the run has no load phase (run --load N)');
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
    else if (x.status === 200 && x.noAnswer?.kind === 'empty') found.push({ kind: 'empty 200', message: `${where(x)} was answered 200 with an empty body: neither a completion nor a refusal`, x });
    else if (x.status === 200 && x.noAnswer?.kind === 'error') found.push({ kind: 'error 200', message: `${where(x)} was answered 200 with the error envelope (${x.noAnswer.said}): a refusal sent as a success; the description refuses excess requests with ${allowed.join(' or ')}`, x });
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

/** A breach as a kind (its rule, and where a schema or a sum breaks): what is compared with the same request at rest. */
const problemKey = (p: Breach) => p.kind;
const said = (p: Breach) => `${p.chunk === undefined ? '' : `chunk ${p.chunk}: `}${p.message} (${p.rule})`;

/** An answer that came whole: 200, an answer (not empty, not the error envelope), not broken, a stream ended with a finish_reason and `[DONE]`. */
const whole = (x: DrivenExchange) => x.status === 200 && x.noAnswer === undefined && x.trouble === undefined && (x.finished === undefined || (x.finished.done && x.finished.finishReason));

const answersConform: Judge = (run) => {
  // What the same kind of request (streamed or not) meets at rest, answered whole: the twin each answer under load is compared with.
  const twins = (stream: boolean) => atRest(run).filter((x) => x.stream === stream && whole(x));
  const rest = { true: new Set(twins(true).flatMap((x) => x.problems.map(problemKey))), false: new Set(twins(false).flatMap((x) => x.problems.map(problemKey))) };
  const hasTwin = { true: twins(true).length > 0, false: twins(false).length > 0 };
  // Usage is reported at rest by every answer of a kind: an answer under load without it is a defect of the load.
  const usageAtRest = (stream: boolean) => twins(stream).some((x) => x.promptTokens !== undefined);
  const found: { kind: string; message: string; x: DrivenExchange }[] = [];
  let judged = 0;
  let untwinned = 0;
  for (const x of underLoad(run)) {
    // A stream that did not end is streams.finished's to judge: only whole answers are compared here.
    if (!whole(x)) continue;
    // No request of its kind was answered whole at rest: nothing says what it meets there.
    if (!hasTwin[`${x.stream}`]) {
      untwinned += 1;
      continue;
    }
    judged += 1;
    for (const p of x.problems) if (!rest[`${x.stream}`].has(problemKey(p))) found.push({ kind: problemKey(p), message: `${where(x)}: ${said(p)}, a rule the same request meets at rest`, x });
    if (x.promptTokens === undefined && usageAtRest(x.stream)) found.push({ kind: `no usage ${x.stream}`, message: `${where(x)} reported no usage, which the same request reports at rest`, x });
  }
  if (found.length > 0) return outcomeOf(grouped(found));
  const notJudged = untwinned === 0 ? '' : `; not judged: ${untwinned} answer(s) under load of a kind (streamed or not) no request at rest was answered whole with`;
  if (judged === 0) return skip(`inconclusive: no request under load was answered 200 in full beside a twin answered whole at rest, so no answer under load was judged${notJudged}`, 'inconclusive');
  return pass(`${judged} answers under load meet what the same requests meet at rest${notJudged}`, judged, untwinned);
};

/** The text of a completion, from its body's JSON text or its SSE text (the deltas' content joined), or undefined. */
function upstreamContent(text: string): string | undefined {
  const parse = (json: string): unknown => {
    try {
      return JSON.parse(json);
    } catch {
      return undefined;
    }
  };
  if (!/^\s*(?:data|event|:)/.test(text)) {
    const c = get(parse(text), 'choices', 0, 'message', 'content');
    return typeof c === 'string' && c !== '' ? c : undefined;
  }
  const pieces = foldSse(text).events.map((e) => get(parse(e.data), 'choices', 0, 'delta', 'content')).filter((c): c is string => typeof c === 'string');
  return pieces.length > 0 && pieces.join('') !== '' ? pieces.join('') : undefined;
}

/** One answer's standing in the crossing check: its own (how it was told), another's, or not told apart (why). */
type Crossing = { own: 'marker' | 'count' | 'text' } | { crossed: string } | { notJudged: string };

/**
 * A gateway run (the harness is the upstream, and each request carries its marker): exact, bodies
 * and streams. Each answer under load is compared with what the upstream answered its own request;
 * one that is the upstream's answer to another request, and not to its own, crossed.
 */
async function byMarker(answered: DrivenExchange[], ctx: CheckContext): Promise<Map<DrivenExchange, Crossing>> {
  const out = new Map<DrivenExchange, Crossing>();
  const upstream = ctx.upstream;
  if (upstream === undefined) return out;
  const own = new Map<DrivenExchange, string | undefined>();
  const byContent = new Map<string, DrivenExchange>();
  for (const x of answered) {
    const sent = (await upstream.of(x.res!))?.filter((u) => u.response.status === 200).at(-1);
    const content = sent === undefined ? undefined : upstreamContent(sent.response.body);
    own.set(x, content);
    if (content !== undefined) byContent.set(content, x);
  }
  for (const x of answered) {
    const mine = own.get(x);
    if (x.content === undefined || x.content === '' || mine === undefined) continue;
    const other = byContent.get(x.content);
    if (x.content !== mine && other !== undefined && other !== x) out.set(x, { crossed: `${where(x)} for prompt ${x.prompt} was answered with what the upstream answered another request (prompt ${other.prompt}, sent at ${other.sentAt} ms)` });
    else if (x.content === mine) out.set(x, { own: 'marker' });
  }
  return out;
}

/**
 * Two prompt counts are within noise (a special token, a template that varies, a count that drifts
 * by a few tokens) when they differ by at most this many tokens: such counts tell no two prompts
 * apart. Each word of the phase's prompts is a token or more in any tokenizer, and any two prompts
 * differ by more words than this (load/drive.ts LOAD_PROMPT_WORDS), so on any server their counts are told apart.
 */
export const COUNT_NOISE_TOKENS = 8;
export const withinNoise = (a: number, b: number) => Math.abs(a - b) <= COUNT_NOISE_TOKENS;

/** By prompt count: what each prompt counted at rest (one request at a time, so no answer can be another's); `words`: the run's prompts, by index. */
function byCount(x: DrivenExchange, counts: Map<number, number>, words: readonly number[]): Crossing | undefined {
  if (x.promptTokens === undefined) return undefined;
  const own = counts.get(x.prompt);
  if (own === undefined) return { notJudged: 'its prompt reported no usage.prompt_tokens at rest' };
  const t = x.promptTokens;
  const near = [...counts].filter(([p, c]) => p !== x.prompt && withinNoise(t, c)).map(([p]) => p);
  if (withinNoise(t, own)) return near.length === 0 ? { own: 'count' } : { notJudged: `prompts ${[x.prompt, near[0]!].sort().join(' and ')} count within ${COUNT_NOISE_TOKENS} tokens of each other` };
  const whose = near.length === 0 ? 'no prompt of the phase counts that' : `that is what prompt ${near[0]} (${words[near[0]!]} words) counts: its answer`;
  return { crossed: `${where(x)} for prompt ${x.prompt} (${words[x.prompt]} words, ${own} prompt tokens at rest) was answered with usage.prompt_tokens ${t}; ${whose}` };
}

/**
 * By text, where the endpoint is shown to answer a prompt with the same text every time (every
 * answer under load told apart by its count carried the text its prompt got at rest, and no two
 * prompts got the same text): an answer with no count is its prompt's when it carries that text,
 * another's when it carries another prompt's. Elsewhere text tells nothing: a sampled answer differs.
 */
function textJudge(run: DrivenLoad, counted: Map<DrivenExchange, Crossing>): ((x: DrivenExchange) => Crossing | undefined) | undefined {
  const texts = new Map<number, string>();
  for (const x of atRest(run)) if (x.status === 200 && x.content !== undefined && x.content !== '') texts.set(x.prompt, x.content);
  if (texts.size < 2 || new Set(texts.values()).size < texts.size) return undefined;
  const told = [...counted].filter(([, c]) => 'own' in c).map(([x]) => x);
  if (told.length === 0 || told.some((x) => x.content !== texts.get(x.prompt))) return undefined;
  const owner = new Map([...texts].map(([p, t]) => [t, p]));
  return (x) => {
    if (x.content === undefined || !texts.has(x.prompt)) return undefined;
    const other = owner.get(x.content);
    if (other === x.prompt) return { own: 'text' };
    if (other !== undefined) return { crossed: `${where(x)} for prompt ${x.prompt} reported no usage and carried the text prompt ${other} was answered with at rest (this endpoint answers each prompt with the same text): its answer` };
    return undefined;
  };
}

const notCrossed: Judge = async (run, ctx) => {
  const answered = underLoad(run).filter((x) => x.res !== undefined && x.status === 200 && x.trouble === undefined && x.noAnswer === undefined);
  if (answered.length === 0) return skip('inconclusive: no request under load was answered 200 in full, so no answer was matched to its prompt', 'inconclusive');
  // Exact where the harness is the upstream; the rest are told by their prompt's count, else by their text.
  const standing = await byMarker(answered, ctx);
  const counts = new Map<number, number>();
  for (const x of atRest(run)) if (x.status === 200 && x.promptTokens !== undefined) counts.set(x.prompt, x.promptTokens);
  for (const x of answered) {
    if (standing.has(x)) continue;
    const c = byCount(x, counts, run.prompts);
    if (c !== undefined) standing.set(x, c);
  }
  const text = textJudge(run, standing);
  for (const x of answered) if (!standing.has(x)) standing.set(x, text?.(x) ?? { notJudged: 'it reported no usage.prompt_tokens, and nothing else tells whose answer it is' });
  const found = answered.flatMap((x) => {
    const c = standing.get(x)!;
    return 'crossed' in c ? [{ kind: 'crossed', message: c.crossed, x }] : [];
  });
  if (found.length > 0) return outcomeOf(grouped(found));
  const own = answered.filter((x) => 'own' in standing.get(x)!);
  const unjudged = answered.map((x) => standing.get(x)!).filter((c): c is { notJudged: string } => 'notJudged' in c);
  const by = (how: string) => own.filter((x) => (standing.get(x) as { own: string }).own === how).length;
  const told = [['marker', 'paired by marker'], ['count', 'by its prompt count'], ['text', 'by its text']].filter(([how]) => by(how!) > 0).map(([how, words]) => `${by(how!)} ${words}`).join(', ');
  const reasons = [...new Set(unjudged.map((c) => c.notJudged))];
  const notJudged = unjudged.length === 0 ? '' : `; not judged: ${unjudged.length} answer(s) under load that could not be told apart (${reasons.join('; ')})`;
  if (own.length === 0) {
    const first = answered.find((x) => 'notJudged' in standing.get(x)!)!;
    // Usage missing under load, where it came at rest, is what answers-conform judges.
    if (first.promptTokens === undefined && atRest(run).some((x) => x.stream === first.stream && x.promptTokens !== undefined)) return handOffOnModel('load.answers.conform', failureOf(first, `inconclusive: ${unjudged.length} answer(s) under load reported no usage.prompt_tokens, so whose answer each is cannot be told`));
    return skip(`inconclusive: no answer under load could be told apart from another prompt's (${reasons.join('; ')})`, 'inconclusive');
  }
  return pass(`${own.length} answers under load were each their own request's (${told})${notJudged}`, own.length, unjudged.length);
};

const streamsFinished: Judge = (run) => {
  const unfinished = (x: DrivenExchange) => x.finished !== undefined && (!x.finished.finishReason || !x.finished.done);
  const began = (x: DrivenExchange) => x.stream && x.status === 200 && x.noAnswer === undefined && x.trouble?.kind !== 'hung';
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
  const window = recoveryWindowText(r);
  if (r.recoveredMs !== undefined) return pass(`answered 200 again ${r.recoveredMs} ms after the peak (within ${window}), after ${r.tries.length} try(ies)`, r.tries.length);
  if (r.stopped !== undefined) return skip(`inconclusive: the run stopped while waiting for the endpoint to recover: ${r.stopped}`, 'inconclusive');
  // Asked for a wait beyond the back-off cap: not waited out, so it did not answer 200 within what the guidance waits.
  if (r.refused !== undefined) {
    const defect = waitDefect(r.refused.x.status ?? 0, r.refused.askedMs, r.capMs);
    return outcomeOf([{ ...failureOf(r.refused.x, `after the peak the endpoint was asked again at rest and refused: ${defect.what}, so it was not waited out (${r.tries.length} tries at rest; the window ${window})`), defect }]);
  }
  const last = r.tries.at(-1);
  // A try that got no answer in time is a request hung: that check's defect, which left this one unjudged.
  const hung = r.tries.find((x) => x.trouble?.kind === 'hung');
  if (hung !== undefined) return handOffOnModel('load.requests.none-hung', failureOf(hung, `inconclusive: a request after the peak was not answered within the run's deadlines (${hung.trouble!.code}), so whether the endpoint recovers within ${window} cannot be seen`));
  if (last?.trouble?.kind === 'stopped') return skip(`inconclusive: the run stopped while waiting for the endpoint to recover: ${last.trouble.what}`, 'inconclusive');
  const got = last?.status !== undefined ? `HTTP ${last.status}` : `no answer (${last?.trouble?.code ?? 'none'})`;
  return outcomeOf([failureOf(last!, `after the peak the endpoint did not answer 200 within ${window} (${r.tries.length} tries at rest; the last got ${got})`)]);
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
