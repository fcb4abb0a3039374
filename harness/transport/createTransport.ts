import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { Agent } from './undiciAgent.ts';
import { HarnessError } from '#harness/core/errors/index.ts';
import type { Exchange, RecordedRequest } from '#harness/core/exchange.ts';
import { redactHeaders, redactText } from '#harness/core/redact.ts';
import type { RetryPolicy } from '#harness/spec/model.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { waitDefect } from '#harness/core/waitDefect.ts';
import { BodyPump } from './bodyPump.ts';
import { AnswerTimesMeter } from './answerTimes.ts';
import { RouteHealth } from './routeHealth.ts';
import { KeyRefusal } from './keyRefusal.ts';
import { TransportError } from './errors.ts';
import { Breaker } from './interceptors/breaker.ts';
import { kRequestContext, type ContextualOptions, type RequestContext } from './interceptors/context.ts';
import { deadline } from './interceptors/deadline.ts';
import { limit } from './interceptors/limit.ts';
import { retry, RetryBudget } from './interceptors/retry.ts';
import { classifyNetworkError, toTransportError } from './networkError.ts';
import { RecordingResponse } from './recordingResponse.ts';
import { Semaphore } from './semaphore.ts';
import { AdaptiveLimit } from './adaptiveLimit.ts';
import { adapt } from './interceptors/adapt.ts';
import { bodyDeadlineMs, completeTiming, rootProbeMs, type Timing } from './timing.ts';
import type { SendRequest, SendResult, Transport, TransportOptions } from './types.ts';

const DEFAULT_MAX_RECORDED_BYTES = 1024 * 1024;
/** A long completion streams a few MB (checks ask for short ones); a stream 16 MiB long is one that does not end. */
const DEFAULT_MAX_STREAM_BYTES = 16 * 1024 * 1024;
/** 5xx retries in a whole run: each request's one confirmation of a 500 and a few more, not a multiple of a persistent fault. */
const DEFAULT_RETRY_BUDGET = 24;

/** The route a request goes to when it names none: method and path, without the query, streamed requests apart (a server may hang on streams only). */
const routeOf = (req: SendRequest, url: URL) => `${req.method} ${url.pathname}${isRecord(req.body) && req.body.stream === true ? ' (streamed)' : ''}`;

/**
 * The HTTP client every check sends through, whatever the target: one keep-alive undici Agent with
 * the run's connect, headers and idle timeouts (timing.ts), composed with interceptors (functions
 * of dispatch), outermost first: `limit` (at most the adaptive limit's requests in flight,
 * adaptiveLimit.ts; a request keeps its slot through its retries and until its body has ended), the
 * `Breaker` (routes that stay silent, a refused key, a stop), `deadline` (every body ends in bounded
 * time), `retry` (the spec's retry guidance) and `adapt` (each attempt's answer moves the limit).
 * Every request and response is recorded as an Exchange, redacted with `secrets` before it is
 * stored.
 */
export function createTransport(options: TransportOptions): Transport {
  const timing = completeTiming(options.timing);
  const maxRecordedBytes = options.maxRecordedBytes ?? DEFAULT_MAX_RECORDED_BYTES;
  const maxStreamBytes = options.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES;
  checkOptions(options, timing, maxRecordedBytes, maxStreamBytes);
  const { secrets } = options;

  const closing = new AbortController();
  // Every request waiting out a Retry-After listens for the close, as many at once as the limit allows.
  setMaxListeners(0, closing.signal);
  // A wait ends at the close, or when the run's stop abandons what is running.
  const waits = options.abandon ? AbortSignal.any([closing.signal, options.abandon]) : closing.signal;
  setMaxListeners(0, waits);
  const sleep = options.sleep ?? ((ms: number) => delay(ms, undefined, { signal: waits }));
  const semaphore = new Semaphore(options.concurrency);
  const limiter = new AdaptiveLimit({ initial: options.concurrency, max: options.maxConcurrency ?? options.concurrency }, (n) => semaphore.resize(n));
  const counters = { requests: 0, retries: 0 };
  const answerTimes = new AnswerTimesMeter();
  const keys = new KeyRefusal();
  let closed = false;

  const agent = new Agent({
    connect: { timeout: timing.connectMs },
    headersTimeout: timing.headersMs,
    bodyTimeout: timing.idleMs,
  });
  /** Any HTTP status to GET / says the server is up (broken on some routes, perhaps); none says it may be down. */
  const probeRoot = async (origin: string): Promise<string | undefined> => {
    const ms = rootProbeMs(timing);
    try {
      const r = await agent.request({ origin, path: '/', method: 'GET', headersTimeout: ms, bodyTimeout: ms, signal: AbortSignal.timeout(ms) });
      r.body.on('error', () => undefined).destroy(); // headers are the answer: the body is not wanted
      return undefined;
    } catch (err) {
      if (closed) return undefined;
      // Said as it happened: a refused probe was refused at once, not waited on for `ms`.
      const failedHow = classifyNetworkError(err, { ...timing, connectMs: ms, headersMs: ms, idleMs: ms });
      // The code goes with it: what to try next depends on it (cli/hints.ts), and bytes that are not HTTP are no silence.
      return failedHow === undefined || failedHow.code === 'HARNESS_TIMEOUT' ? `got no answer within ${ms} ms` : `failed: ${failedHow.code}: ${failedHow.what}`;
    }
  };
  const breaker = new Breaker({ health: new RouteHealth(), keys, timing, probeRoot, redact: (text) => redactText(text, secrets) });
  // compose() applies interceptors in order, each wrapping the ones before: the last is outermost.
  const dispatcher = agent.compose(
    adapt(limiter, answerTimes),
    retry({
      policy: options.retry,
      budget: new RetryBudget(options.retryBudget ?? DEFAULT_RETRY_BUDGET),
      sleep,
      random: options.random ?? Math.random,
      onAttempt: () => {
        counters.requests += 1;
      },
      onRetry: (info) => {
        counters.retries += 1;
        options.onRetry?.({ ...info, url: redactText(info.url, secrets) });
      },
    }),
    deadline(timing.totalMs),
    breaker.interceptor(),
    // Inside the target's own limit: a request holding its target's slot waits for one of the run's.
    ...(options.runCap ? [limit(options.runCap, { adaptive: false })] : []),
    limit(semaphore),
  );

  // The run's stop: nothing more is sent, and what is in flight is abandoned (breaker.ts).
  const abandon = options.abandon;
  const onAbandon = () => breaker.interrupt(`the run was stopped (${abandon?.reason instanceof Error ? abandon.reason.message : String(abandon?.reason ?? 'stop')})`);
  if (abandon?.aborted) onAbandon();
  else abandon?.addEventListener('abort', onAbandon, { once: true });

  async function send(req: SendRequest): Promise<SendResult> {
    const { payload, headers, recorded } = prepare(req, secrets);
    const exchange: Exchange = { request: recorded, attempts: 0 };
    const secret = secrets.findIndex((s) => s.length >= 4 && Object.values(headers).some((v) => v.includes(s)));
    const record = options.record ? () => options.record?.(exchange, secret >= 0 ? { secret } : {}) : undefined;
    if (closed) throw new TransportError('HARNESS_CLOSED', 'the transport is closed', exchange);
    const url = new URL(req.url);
    const context: RequestContext = {
      retry: req.retry !== false,
      ...(req.final === true ? { final: true } : {}),
      attempts: 0,
      attemptStartedAt: 0,
      route: req.route ?? routeOf(req, url),
      // Secret 0 is the run's key (runScope.ts): only answers to requests carrying it say whether it is refused.
      keyed: secret === 0,
      probe: req.probe === true,
      deadlineMs: bodyDeadlineMs(timing, req.body),
      ...(req.priority !== undefined ? { priority: req.priority } : {}),
      // Under load a 429, 503 or 500 is the evidence: it is judged as it came, never waited out.
      ...(req.load === true ? { load: true, final: true, retry: false } : {}),
    };
    const opts: Dispatcher.RequestOptions & ContextualOptions = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: req.method,
      headers,
      body: payload ?? null,
      [kRequestContext]: context,
    };

    let data: Dispatcher.ResponseData;
    try {
      data = await dispatcher.request(opts);
    } catch (err) {
      exchange.attempts = context.attempts;
      const error = toTransportError(err, exchange, secrets, timing);
      record?.();
      throw error;
    }
    const headersAt = performance.now();
    const headersMs = headersAt - context.attemptStartedAt;
    const responseHeaders = flattenHeaders(data.headers);
    exchange.attempts = context.attempts;
    if (context.beyondCap) exchange.beyondCap = context.beyondCap;
    const withResponse = Object.assign(exchange, {
      response: { status: data.statusCode, headers: redactHeaders(responseHeaders, secrets), durationMs: Math.round(headersMs) },
    });
    const response = new RecordingResponse({
      status: data.statusCode,
      headers: responseHeaders,
      exchange: withResponse,
      pump: new BodyPump(data.body, headersAt, Math.max(maxRecordedBytes, DEFAULT_MAX_RECORDED_BYTES)),
      secrets,
      maxRecordedBytes,
      maxStreamBytes: req.maxStreamBytes ?? maxStreamBytes,
      timing,
      headersMs,
      ...(record ? { onSettled: record } : {}),
    });
    record?.();
    if (context.beyondCap) {
      // Not waited out, so not an answer to judge: the request was refused. Its body read first, as evidence.
      await response.text().catch(() => undefined);
      const { askedMs, capMs } = context.beyondCap;
      throw new TransportError('HARNESS_WAIT_REFUSED', waitDefect(data.statusCode, askedMs, capMs).what, exchange);
    }
    return response;
  }

  return {
    send,
    async close() {
      if (closed) return;
      closed = true;
      abandon?.removeEventListener('abort', onAbandon);
      closing.abort(); // default-sleep retry waits end now, with an AbortError: HARNESS_CLOSED
      // Nothing running: close gracefully. Otherwise (a retry waiting, a body nobody reads) do not hang.
      if (semaphore.active === 0 && semaphore.waiting === 0 && breaker.probing === 0) await agent.close();
      else await agent.destroy();
    },
    stats() {
      return { maxInFlight: semaphore.peak, requests: counters.requests, retries: counters.retries, concurrency: limiter.stats(), answerTimes: answerTimes.figures() };
    },
    keyRefused: () => keys.declared(),
    waiting: () => breaker.waiting(),
  };
}

/** The bytes to send, the headers to send them with, and the redacted record of both. */
function prepare(req: SendRequest, secrets: readonly string[]): { payload: string | undefined; headers: Record<string, string>; recorded: RecordedRequest } {
  if (req.body !== undefined && req.rawBody !== undefined) {
    throw new HarnessError('HARNESS_CONFIG', `send: give body or rawBody, not both — ${req.method} ${redactText(req.url, secrets)}`);
  }
  if (!URL.canParse(req.url) || !/^https?:$/.test(new URL(req.url).protocol)) {
    throw new HarnessError('HARNESS_CONFIG', `send: not an absolute http(s) URL — ${req.method} ${redactText(req.url, secrets)}`);
  }
  const headers: Record<string, string> = { ...req.headers };
  let payload: string | undefined;
  if (req.rawBody !== undefined) payload = req.rawBody;
  else if (req.body !== undefined) {
    payload = JSON.stringify(req.body);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  const recorded: RecordedRequest = { method: req.method, url: redactText(req.url, secrets), headers: redactHeaders(headers, secrets) };
  // Recorded from the bytes sent: a deep copy, so a caller changing its object later changes no evidence.
  if (req.rawBody !== undefined) recorded.rawBody = redactText(req.rawBody, secrets);
  else if (payload !== undefined) recorded.body = JSON.parse(redactText(payload, secrets)) as unknown;
  return { payload, headers, recorded };
}

/** undici's headers (lowercase names; a repeated header as an array) as one string per name. */
function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Options are checked up front, so a bad one fails at construction with its name. */
function checkOptions(options: TransportOptions, timing: Timing, maxRecordedBytes: number, maxStreamBytes: number): void {
  const problems: string[] = [];
  const integer = (name: string, value: number, min: number): void => {
    if (!Number.isInteger(value) || value < min) problems.push(`${name} must be an integer >= ${min}, got ${value}`);
  };
  const number = (name: string, value: number, min: number): void => {
    if (!Number.isFinite(value) || value < min) problems.push(`${name} must be a number >= ${min}, got ${value}`);
  };
  integer('concurrency', options.concurrency, 1);
  if (options.maxConcurrency !== undefined) integer('maxConcurrency', options.maxConcurrency, options.concurrency);
  integer('maxRecordedBytes', maxRecordedBytes, 0);
  integer('maxStreamBytes', maxStreamBytes, 1);
  for (const name of ['connectMs', 'headersMs', 'idleMs', 'totalMs'] as const) number(`timing.${name}`, timing[name], 1);
  const policy: RetryPolicy = options.retry;
  integer('retry.max_attempts', policy.max_attempts, 1);
  number('retry.initial_delay_seconds', policy.initial_delay_seconds, 0);
  number('retry.multiplier', policy.multiplier, 1);
  number('retry.max_delay_seconds', policy.max_delay_seconds, 0);
  number('retry.min_delay_after_503_seconds', policy.min_delay_after_503_seconds, 0);
  number('retry.jitter_seconds.min', policy.jitter_seconds.min, 0);
  number('retry.jitter_seconds.max', policy.jitter_seconds.max, policy.jitter_seconds.min);
  if (problems.length > 0) throw new HarnessError('HARNESS_CONFIG', `createTransport: ${problems.join('; ')}`);
}
