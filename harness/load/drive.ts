/**
 * The load phase on one model (`run --load N`): the requests in flight ramp through stepsOf(N),
 * each step held for a few rounds, streamed and not, prompts of widely different lengths; then the
 * endpoint is asked at rest until it answers 200 again. Every request is kept with what came back
 * (core/load.ts), judged once here for what each load check reads of it: the answer's own
 * problems against the contract (the judge the checks at rest hold answers to: usage sums too,
 * from meanings.yaml), its usage, how its stream ended. A room of its own: the runner drives the
 * phase once per model (runner/loadPhase.ts) and hands the run to the load checks, which judge it
 * (checks/load/checks.ts) and send nothing.
 */
import { HarnessError } from '#harness/core/errors/index.ts';
import { isBlocked } from '#harness/core/blocked.ts';
import { isNotCaptured } from '#harness/core/notCaptured.ts';
import { backoffCapMs, retryAfterMs } from '#harness/core/retryAfter.ts';
import { sleepUnless } from '#harness/core/sleepUnless.ts';
import type { Exchange } from '#harness/core/exchange.ts';
import { stepsOf, type LoadExchange } from '#harness/core/load.ts';
import type { SseEvent } from '#harness/core/sseFold.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckRequest, CheckResponse } from '#harness/checks/context.ts';
import { get } from '#harness/checks/support/body.ts';
import { errorEnvelopeSaid, jsonOf } from '#harness/checks/support/errorEnvelope.ts';
import { readStream } from '#harness/checks/support/stream.ts';
import { answerJudge, type AnswerJudge } from '#harness/checks/answer/conformance.ts';
import type { Breach } from '#harness/checks/answer/breach.ts';
import { longPrompt } from '#harness/checks/support/requests.ts';
import type { DrivenExchange, DrivenLoad, DrivenRecovery, RecoveryWindow } from '#harness/checks/load/run.ts';

/**
 * Word counts of the phase's prompts: far apart, so that any two count apart in any tokenizer, and
 * small enough for the context of a tiny model served for tests.
 */
export const LOAD_PROMPT_WORDS = [2, 24, 96, 240] as const;
/** Output asked of each request: enough chunks to time a stream's pace, little to pay. */
export const LOAD_MAX_TOKENS = 16;
/** Requests each slot of a step sends one after another: a step is held this many rounds. */
export const ROUNDS_PER_STEP = 2;

/** The requests the phase sends at step `step` holding `inFlight` at once: each slot sends its share one after another. */
export function stepRequests(step: number, inFlight: number): number {
  // At rest (one in flight) every prompt goes once, streamed and not by turns: what each counts at rest.
  return step === 0 ? LOAD_PROMPT_WORDS.length : Math.max(inFlight * ROUNDS_PER_STEP, LOAD_PROMPT_WORDS.length);
}

/** The requests one slot sends one after another over the whole ramp of `n`: the phase's longest chain of requests, before its recovery. */
export function rampChain(n: number): number {
  return stepsOf(n).reduce((sum, inFlight, step) => sum + Math.ceil(stepRequests(step, inFlight) / inFlight), 0);
}

/** The longest the recovery may wait, whatever the endpoint says: the back-off cap, or the spec's window without a Retry-After if longer. */
export function recoveryBoundMs(spec: Spec): number {
  return Math.max(backoffCapMs(spec.errors.retry), recoverySeconds(spec) * 1000);
}

/** The recovery's wait before its next try: the try that got `status`, whether its Retry-After set the wait, from and until (performance.now()). */
export interface RecoveryWait {
  request: string;
  status: number | undefined;
  retryAfter: boolean;
  since: number;
  until: number;
}

/** The request of prompt `i`, streamed or not: its text differs from every other prompt's in length and words. */
export function loadRequest(ctx: CheckContext, prompt: number, stream: boolean): CheckRequest {
  const words = LOAD_PROMPT_WORDS[prompt % LOAD_PROMPT_WORDS.length]!;
  const content = `Load probe ${prompt}. Answer in one short sentence. ${longPrompt(words)}`;
  // A stream asks for its usage as clients do: servers and gateways (llama-server, LiteLLM) send it only when asked, and its prompt count is what tells the streams apart.
  return { base: 'base_url', method: 'POST', path: '/chat/completions', load: true, body: { model: ctx.targetModel, messages: [{ role: 'user', content }], max_tokens: LOAD_MAX_TOKENS, ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) } };
}

/** Why the phase cannot go on: the run was stopped, the budget reached. */
const ENDING = new Set(['HARNESS_INTERRUPTED', 'HARNESS_BUDGET_REACHED', 'HARNESS_KEY_REFUSED', 'HARNESS_UNRESPONSIVE', 'HARNESS_CLOSED']);

export interface DriveOptions {
  /** performance.now by default (tests hand their own). */
  clock?: () => number;
  /** Each request of the phase as it ends (the run's progress line). */
  onExchange?: (x: LoadExchange) => void;
  /** Once the peak is over: the recovery's window, before its first try (the run's progress line). */
  onRecovery?: (w: RecoveryWindow) => void;
  /** While the recovery waits before its next try: what it waits on, until when; returns what says it has ended. */
  onWait?: (w: RecoveryWait) => () => void;
  /**
   * The run's stop (runner/runStop.ts `signal`): once it aborts no request of the phase is sent and
   * the recovery's wait ends; the requests in flight end with the transport's grace.
   */
  stop?: AbortSignal;
}

/** The phase's own words for a stop, as its other endings are said. */
const stoppedBy = (stop: AbortSignal) => `the run was stopped (${stop.reason instanceof Error ? stop.reason.message : String(stop.reason ?? 'stop')})`;

/** Drives the phase of `n` on the context's model. */
export async function driveLoad(ctx: CheckContext, n: number, options: DriveOptions = {}): Promise<DrivenLoad> {
  const clock = options.clock ?? (() => performance.now());
  const steps = stepsOf(n);
  const run: DrivenLoad = { model: ctx.model, n, steps, prompts: [...LOAD_PROMPT_WORDS], exchanges: [], stepMs: [] };
  const t0 = clock();
  const judge = answerJudge(ctx);
  let sent = 0;
  for (const [step, inFlight] of steps.entries()) {
    const total = stepRequests(step, inFlight);
    let next = 0;
    const started = clock();
    const slot = async () => {
      while (next < total && run.endedEarly === undefined) {
        if (options.stop?.aborted) {
          run.endedEarly = stoppedBy(options.stop);
          break;
        }
        const k = sent++;
        next++;
        const prompt = k % LOAD_PROMPT_WORDS.length;
        const stream = Math.floor(k / LOAD_PROMPT_WORDS.length) % 2 === 1 ? prompt % 2 === 0 : prompt % 2 === 1;
        const x = await exchangeOf(ctx, judge, { step, inFlight, prompt, stream }, t0, clock);
        run.exchanges.push(x);
        options.onExchange?.(x);
        if (x.trouble?.kind === 'stopped') run.endedEarly ??= x.trouble.what;
      }
    };
    await Promise.all(Array.from({ length: inFlight }, slot));
    run.stepMs.push(Math.round(clock() - started));
    if (run.endedEarly !== undefined) return run;
    // Nothing answered at rest: the endpoint is gone, and a ramp would only wait on it the longer.
    if (step === 0 && run.exchanges.every((x) => x.status === undefined)) {
      run.endedEarly = 'no request was answered at rest (one in flight), so the load was not raised';
      return run;
    }
  }
  run.recovery = await recover(ctx, judge, run, t0, clock, options);
  return run;
}

/** The recovery's window: the longest Retry-After the peak gave, never beyond the back-off cap; without one, the spec's. */
export function recoveryWindow(spec: Spec, run: Pick<DrivenLoad, 'steps' | 'exchanges'>): RecoveryWindow {
  const peak = run.steps.length - 1;
  const afters = run.exchanges.filter((x) => x.step === peak).map((x) => retryAfterOf(x.res)).filter((ms): ms is number => ms !== undefined);
  const capMs = backoffCapMs(spec.errors.retry);
  if (afters.length === 0) return { windowMs: recoverySeconds(spec) * 1000, capMs };
  const askedMs = Math.max(...afters);
  return { windowMs: Math.min(askedMs, capMs), askedMs, capMs };
}

/**
 * After the peak: asked at rest until a 200, within its window (recoveryWindow). A try refused with
 * a Retry-After beyond the back-off cap ends it: that wait is not waited out, in this phase either.
 * The run's stop ends it, its wait too.
 */
async function recover(ctx: CheckContext, judge: AnswerJudge, run: DrivenLoad, t0: number, clock: () => number, options: DriveOptions): Promise<DrivenRecovery> {
  const peak = run.steps.length - 1;
  const window = recoveryWindow(ctx.spec, run);
  options.onRecovery?.(window);
  const from = clock();
  const tries: DrivenExchange[] = [];
  const { stop } = options;
  for (let attempt = 0; ; attempt++) {
    const x = await exchangeOf(ctx, judge, { step: peak, inFlight: 1, prompt: 0, stream: false }, t0, clock);
    tries.push(x);
    // Answered again: a 200 that is an answer, not an empty one nor the error envelope sent as a success.
    if (x.status === 200 && x.noAnswer === undefined) return { ...window, recoveredMs: Math.round(clock() - from), tries };
    if (x.trouble?.kind === 'stopped') return { ...window, tries };
    const asked = retryAfterOf(x.res);
    if (asked !== undefined && asked > window.capMs) return { ...window, tries, refused: { askedMs: asked, x } };
    // Wait as told (or a second, doubling), never past the window, and not past a stop.
    const left = window.windowMs - (clock() - from);
    if (left <= 0) return { ...window, tries };
    const ms = Math.min(left, asked ?? 1000 * 2 ** Math.min(attempt, 4));
    const ended = options.onWait?.({ request: `the load phase's recovery: ${x.exchange.request.method} ${x.exchange.request.url}`, status: x.status, retryAfter: asked !== undefined, since: performance.now(), until: performance.now() + ms });
    await sleepUnless(ms, stop);
    ended?.();
    if (stop?.aborted) return { ...window, tries, stopped: stoppedBy(stop) };
  }
}

/** The seconds without a Retry-After that an endpoint is given to answer 200 again (spec/limits.yaml). */
export function recoverySeconds(spec: Spec): number {
  const s = get(spec.rate_limits, 'under_load', 'recovery_seconds_without_retry_after');
  if (typeof s !== 'number') throw new HarnessError('HARNESS_CONFIG', 'spec/limits.yaml: rate_limits.under_load.recovery_seconds_without_retry_after is missing');
  return s;
}

/**
 * The Retry-After of an answer (the description's guidance reads it first), in milliseconds, read
 * as the transport reads it (decimal seconds too: LiteLLM sends "5.457843"); a date counts from the
 * answer's own Date, and without one it is none.
 */
function retryAfterOf(res: CheckResponse | undefined): number | undefined {
  const ms = retryAfterMs(res?.headers['retry-after'], Date.parse(res?.headers.date ?? ''));
  return ms !== undefined && Number.isFinite(ms) ? ms : undefined;
}

/** Sends one request of the phase and reads it to its end, timing its headers, its first token and its chunks. */
async function exchangeOf(ctx: CheckContext, judge: AnswerJudge, at: Pick<LoadExchange, 'step' | 'inFlight' | 'prompt' | 'stream'>, t0: number, clock: () => number): Promise<DrivenExchange> {
  const request = loadRequest(ctx, at.prompt, at.stream);
  const start = clock();
  const base = { ...at, sentAt: Math.round(start - t0), problems: [] as Breach[] };
  let res: CheckResponse;
  try {
    res = await ctx.send(request);
  } catch (err) {
    return { ...base, endMs: Math.round(clock() - start), trouble: troubleOf(err, false), exchange: exchangeOfError(err, request) };
  }
  const x: DrivenExchange = { ...base, res, status: res.status, headersMs: Math.round(clock() - start), exchange: res.exchange };
  try {
    if (res.status === 200 && at.stream) await readStreamed(ctx, res, x, judge, start, clock);
    else if (res.status === 200) {
      const body = await res.json().catch((err: unknown) => err);
      const said = body instanceof Error ? undefined : errorEnvelopeSaid((o, b) => ctx.judge(o, b), body);
      if (body instanceof Error) {
        const cut = (body as { code?: string }).code;
        if (cut === 'HARNESS_RESET' || cut === 'HARNESS_TIMEOUT') x.trouble = troubleOf(body, true);
        else if ((res.exchange.response?.text ?? '').trim() === '') x.noAnswer = { kind: 'empty' };
        else x.problems.push({ rule: 'schema.chat-completion.matches-schema', kind: 'schema.chat-completion.matches-schema / parse', message: `the body is not a completion: ${body.message.slice(0, 200)}` });
      } else if (said !== undefined) x.noAnswer = { kind: 'error', said };
      else {
        x.problems.push(...(await judge.body(res, body)));
        usageOf(x, get(body, 'usage'));
        const content = get(body, 'choices', 0, 'message', 'content');
        if (typeof content === 'string') x.content = content;
      }
    } else await res.text().catch((err: unknown) => (x.trouble = troubleOf(err, true)));
  } catch (err) {
    x.trouble = troubleOf(err, true);
  }
  x.endMs = Math.round(clock() - start);
  return x;
}

async function readStreamed(ctx: CheckContext, res: CheckResponse, x: DrivenExchange, judge: AnswerJudge, start: number, clock: () => number): Promise<void> {
  const gaps: number[] = [];
  let last: number | undefined;
  const timed: CheckResponse = {
    status: res.status,
    headers: res.headers,
    exchange: res.exchange,
    text: () => res.text(),
    json: () => res.json(),
    events: () => timedEvents(res.events(), (e) => {
      const now = clock();
      if (e.kind !== 'data') return;
      if (last !== undefined) gaps.push(Math.round(now - last));
      last = now;
      if (x.firstTokenMs === undefined && carriesText(e.data)) x.firstTokenMs = Math.round(now - start);
    }),
  };
  const s = await readStream(timed, { judge: judge.chunk });
  if (s.chunks === 0 && s.malformed.count === 0 && !s.done && s.error === undefined) {
    // No event at all: nothing, or a JSON body in place of the stream (the error envelope, with a 200).
    const said = errorEnvelopeSaid((o, b) => ctx.judge(o, b), res.exchange.response?.body ?? jsonOf(res.exchange.response?.text));
    x.noAnswer = said === undefined ? { kind: 'empty' } : { kind: 'error', said };
  }
  x.chunkGapsMs = gaps;
  x.finished = { finishReason: s.finishes.count > 0, done: s.done };
  if (s.error !== undefined) {
    const code = (res.exchange.error?.code ?? '') as string;
    x.trouble = { kind: code === 'HARNESS_TIMEOUT' ? 'hung' : 'cut', code: code || 'STREAM_BROKE', what: s.error };
  } else x.problems.push(...(await judge.stream(res, s)));
  usageOf(x, s.message.usage);
  // The whole text only: a capped one tells nothing apart.
  if (s.message.content.chars === s.message.content.text.length) x.content = s.message.content.text;
}

async function* timedEvents(events: AsyncIterable<SseEvent>, seen: (e: SseEvent) => void): AsyncIterable<SseEvent> {
  for await (const e of events) {
    seen(e);
    yield e;
  }
}

function carriesText(data: string): boolean {
  try {
    const delta = get(JSON.parse(data), 'choices', 0, 'delta');
    const text = get(delta, 'content') ?? get(delta, 'reasoning_content');
    return typeof text === 'string' && text.length > 0;
  } catch {
    return false;
  }
}

function usageOf(x: DrivenExchange, usage: unknown): void {
  const p = get(usage, 'prompt_tokens');
  const c = get(usage, 'completion_tokens');
  if (typeof p === 'number') x.promptTokens = p;
  if (typeof c === 'number') x.completionTokens = c;
}

/** How a request went wrong, from the error it ended with; `answered`: headers had come. */
function troubleOf(err: unknown, answered: boolean): NonNullable<LoadExchange['trouble']> {
  // A route not served, or left out of the run: nothing of it can be judged under load either.
  if (isBlocked(err)) return { kind: 'stopped', code: 'BLOCKED', what: err.message };
  // A replay that never recorded this request: nothing was answered, so nothing is judged.
  if (isNotCaptured(err)) return { kind: 'stopped', code: 'NOT_RECORDED', what: err.message };
  const code = (err as { code?: string }).code ?? 'ERROR';
  const what = (err as { what?: string }).what ?? (err as Error).message ?? String(err);
  if (ENDING.has(code)) return { kind: 'stopped', code, what };
  if (code === 'HARNESS_TIMEOUT') return { kind: 'hung', code, what };
  return { kind: answered ? 'cut' : 'no-answer', code, what };
}

function exchangeOfError(err: unknown, request: CheckRequest): Exchange {
  const exchange = (err as { exchange?: Exchange }).exchange;
  return exchange ?? { request: { method: request.method, url: request.path, headers: {}, body: request.body }, attempts: 0 };
}
