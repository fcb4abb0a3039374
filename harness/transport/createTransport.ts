import { setTimeout as delay } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import { HarnessError } from '#harness/core/errors/index.ts';
import type { Exchange, RecordedRequest } from '#harness/core/exchange.ts';
import { redactHeaders, redactText, redactValue } from '#harness/core/redact.ts';
import type { RetryPolicy } from '#harness/spec/model.ts';
import { NOT_CAPTURED_HEADER } from '#harness/core/notCaptured.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { BodyPump } from './bodyPump.ts';
import { EndpointHealth, RetryBudget } from './endpointHealth.ts';
import { KeyRefusal } from './keyRefusal.ts';
import { TransportError } from './errors.ts';
import { contextOf, kRequestContext, type ContextualOptions, type RequestContext } from './interceptors/context.ts';
import { limit } from './interceptors/limit.ts';
import { retry } from './interceptors/retry.ts';
import { classifyNetworkError, toTransportError, type Timeouts } from './networkError.ts';
import { RecordingResponse } from './recordingResponse.ts';
import { Semaphore } from './semaphore.ts';
import type { SendRequest, SendResult, Transport, TransportOptions } from './types.ts';

const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 60_000 };
const DEFAULT_MAX_RECORDED_BYTES = 1024 * 1024;
/** A long completion streams a few MB (checks ask for short ones); a stream 16 MiB long is one that does not end. */
const DEFAULT_MAX_STREAM_BYTES = 16 * 1024 * 1024;
/** 5xx retries in a whole run: enough to ride out a passing fault, not to multiply a persistent one. */
const DEFAULT_RETRY_BUDGET = 8;
/** Failures that mean no answer came: the ones that, in a row, make the endpoint unresponsive. */
const NO_ANSWER = new Set(['HARNESS_CONNECT', 'HARNESS_TIMEOUT', 'HARNESS_RESET', 'HARNESS_PROTOCOL']);

/** A request refused in line, once the endpoint (or its path) was declared unresponsive, or the key it carries refused. */
class Unsent extends Error {
  constructor(message: string, readonly code: 'HARNESS_UNRESPONSIVE' | 'HARNESS_KEY_REFUSED' = 'HARNESS_UNRESPONSIVE') {
    super(message);
  }
}

/** A path as endpoint health counts it: method and path, without the query, streamed requests apart (a server may hang on streams only). */
const whereOf = (method: string, path: string, streamed = false) => `${method} ${path.split('?')[0]}${streamed ? ' (streamed)' : ''}`;
const isStream = (body: unknown) => isRecord(body) && body.stream === true;

/**
 * The HTTP client every check sends through, whatever the target: one keep-alive undici Agent
 * with connect, headers and body timeouts, composed with two interceptors (functions of dispatch):
 * `limit` (outermost: at most `concurrency` requests in flight, a request keeps its slot through
 * its retries and until its body has ended) and `retry` (the spec's retry guidance). Every request
 * and response is recorded as an Exchange, redacted with `secrets` before it is stored.
 */
export function createTransport(options: TransportOptions): Transport {
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options.timeouts ?? {}) };
  const maxRecordedBytes = options.maxRecordedBytes ?? DEFAULT_MAX_RECORDED_BYTES;
  const maxStreamBytes = options.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES;
  checkOptions(options, timeouts, maxRecordedBytes, maxStreamBytes);
  const { secrets } = options;

  const closing = new AbortController();
  const sleep = options.sleep ?? ((ms: number) => delay(ms, undefined, { signal: closing.signal }));
  const semaphore = new Semaphore(options.concurrency);
  const counters = { requests: 0, retries: 0 };
  const health = new EndpointHealth();
  const keys = new KeyRefusal();
  /** Requests on the wire, so that declaring a path or the endpoint unresponsive also ends those sent to it already. */
  const inFlight = new Set<{ where: string; abort: AbortController }>();
  const abandon = () => {
    for (const f of inFlight) {
      const why = health.refusal(f.where);
      if (why !== undefined) f.abort.abort(new Unsent(`abandoned: ${why}`));
    }
  };
  /**
   * After a request got no answer: does the server answer anything? Any HTTP status to GET / says
   * it is up (broken on one path, perhaps); no answer within the connect timeout says it is down.
   */
  let probing = 0;
  /** When each origin's root was last probed. */
  const probed = new Map<string, number>();
  const probe = (origin: string, cause: string) => {
    const ms = Math.min(timeouts.connectMs, timeouts.headersMs);
    probing += 1;
    agent
      .request({ origin, path: '/', method: 'GET', headersTimeout: ms, bodyTimeout: ms, signal: AbortSignal.timeout(ms) })
      // Headers are the answer: the body is not wanted.
      .then((r) => void r.body.on('error', () => undefined).destroy(), (err: unknown) => {
        if (closed) return;
        // Said as it happened: a refused probe was refused at once, not waited on for `ms`.
        const failedHow = classifyNetworkError(err, { connectMs: ms, headersMs: ms, bodyMs: ms });
        const how = failedHow === undefined || failedHow.code === 'HARNESS_TIMEOUT' ? `got none within ${ms} ms either` : `failed too: ${failedHow.what}`;
        health.down(`a request got no answer (${cause}), and a probe of ${origin}/ ${how}`);
        abandon();
      })
      .finally(() => (probing -= 1));
  };
  const failed = (cause: string, where: string, network: boolean, origin?: string, isProbe = false) => {
    health.failed(cause, where, network, isProbe);
    // A probe of the root at most every half minute: a server that answered it once may still die.
    if (network && origin !== undefined && !closed && performance.now() - (probed.get(origin) ?? -Infinity) > 30_000) {
      probed.set(origin, performance.now());
      probe(origin, cause);
    }
    abandon();
  };
  let closed = false;

  const agent = new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });
  // compose() applies interceptors in order, each wrapping the ones before: the last is outermost.
  const dispatcher = agent.compose(
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
    limit(semaphore, (opts) => {
      const context = contextOf(opts);
      const keyRefused = context?.keyed === true ? keys.refusal() : undefined;
      if (keyRefused !== undefined) return new Unsent(`not sent: ${keyRefused}`, 'HARNESS_KEY_REFUSED');
      const why = context?.where === undefined ? undefined : health.refusal(context.where);
      return why === undefined ? undefined : new Unsent(`not sent: ${why}`);
    }),
  );

  async function send(req: SendRequest): Promise<SendResult> {
    const { payload, headers, recorded } = prepare(req, secrets);
    const exchange: Exchange = { request: recorded, attempts: 0 };
    const secret = secrets.findIndex((s) => s.length >= 4 && Object.values(headers).some((v) => v.includes(s)));
    // Secret 0 is the run's key (runScope.ts): only answers to requests carrying it say whether it is refused.
    const keyed = secret === 0;
    const record = options.record ? () => options.record?.(exchange, secret >= 0 ? { secret } : {}) : undefined;
    if (closed) throw new TransportError('HARNESS_CLOSED', 'the transport is closed', exchange);
    const url = new URL(req.url);
    const where = whereOf(req.method, url.pathname, isStream(req.body));
    const keyRefused = keyed ? keys.refusal() : undefined;
    if (keyRefused !== undefined) throw new TransportError('HARNESS_KEY_REFUSED', `not sent: ${keyRefused}`, exchange);
    const refused = health.refusal(where);
    if (refused !== undefined) throw new TransportError('HARNESS_UNRESPONSIVE', `not sent: ${refused}`, exchange);
    /** No answer at all: counts toward declaring the endpoint unresponsive. */
    const noAnswer = (code: string | undefined, message: string) => {
      if (code !== undefined && NO_ANSWER.has(code)) failed(`${code}: ${message}`, where, true, url.origin, req.probe === true);
    };
    const flight = { where, abort: new AbortController() };
    const context: RequestContext = { retry: req.retry !== false, attempts: 0, attemptStartedAt: 0, where, keyed };
    const opts: Dispatcher.RequestOptions & ContextualOptions = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: req.method,
      headers,
      body: payload ?? null,
      signal: flight.abort.signal,
      [kRequestContext]: context,
    };

    let data: Dispatcher.ResponseData;
    inFlight.add(flight);
    try {
      data = await dispatcher.request(opts);
    } catch (err) {
      inFlight.delete(flight);
      exchange.attempts = context.attempts;
      const reason: unknown = flight.abort.signal.aborted ? flight.abort.signal.reason : err;
      const error = reason instanceof Unsent ? new TransportError(reason.code, reason.message, exchange) : toTransportError(err, exchange, secrets, timeouts);
      if (error instanceof TransportError) noAnswer(error.code, error.message);
      record?.();
      throw error;
    }
    const headersAt = performance.now();
    const headersMs = headersAt - context.attemptStartedAt;
    const responseHeaders = flattenHeaders(data.headers);
    exchange.attempts = context.attempts;
    if (keyed && responseHeaders[NOT_CAPTURED_HEADER] === undefined) keys.answered(data.statusCode);
    const withResponse = Object.assign(exchange, {
      response: { status: data.statusCode, headers: redactHeaders(responseHeaders, secrets), durationMs: Math.round(headersMs) },
    });
    // A replayed recording's "nothing captured" (599) is no answer of the endpoint's: it says nothing of its health.
    if (data.statusCode >= 500 && responseHeaders[NOT_CAPTURED_HEADER] === undefined) failed(`HTTP ${data.statusCode}${context.attempts > 1 ? ` after ${context.attempts} attempts` : ''} — ${recorded.method} ${recorded.url}`, where, false);
    // An answer below 500 shows the endpoint alive once its body has come whole; one that broke off does not.
    const settled = () => {
      inFlight.delete(flight);
      if (data.statusCode < 500) {
        if (exchange.error !== undefined && NO_ANSWER.has(exchange.error.code)) noAnswer(exchange.error.code, exchange.error.message);
        else health.alive(where);
      }
      record?.();
    };
    const response = new RecordingResponse({
      status: data.statusCode,
      headers: responseHeaders,
      exchange: withResponse,
      pump: new BodyPump(data.body, headersAt, Math.max(maxRecordedBytes, DEFAULT_MAX_RECORDED_BYTES)),
      secrets,
      maxRecordedBytes,
      maxStreamBytes: req.maxStreamBytes ?? maxStreamBytes,
      timeouts,
      headersMs,
      onSettled: settled,
    });
    record?.();
    return response;
  }

  return {
    send,
    async close() {
      if (closed) return;
      closed = true;
      closing.abort(); // default-sleep retry waits end now, with an AbortError: HARNESS_CLOSED
      // Nothing running: close gracefully. Otherwise (a retry waiting, a body nobody reads) do not hang.
      if (semaphore.active === 0 && semaphore.waiting === 0 && probing === 0) await agent.close();
      else await agent.destroy();
    },
    stats() {
      return { maxInFlight: semaphore.peak, requests: counters.requests, retries: counters.retries };
    },
    keyRefused: () => keys.declared(),
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
  else if (payload !== undefined) recorded.body = redactValue(JSON.parse(payload) as unknown, secrets);
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

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Options are checked up front, so a bad one fails at construction with its name. */
function checkOptions(options: TransportOptions, timeouts: Timeouts, maxRecordedBytes: number, maxStreamBytes: number): void {
  const problems: string[] = [];
  const integer = (name: string, value: number, min: number): void => {
    if (!Number.isInteger(value) || value < min) problems.push(`${name} must be an integer >= ${min}, got ${value}`);
  };
  const number = (name: string, value: number, min: number): void => {
    if (!Number.isFinite(value) || value < min) problems.push(`${name} must be a number >= ${min}, got ${value}`);
  };
  integer('concurrency', options.concurrency, 1);
  integer('maxRecordedBytes', maxRecordedBytes, 0);
  integer('maxStreamBytes', maxStreamBytes, 1);
  number('timeouts.connectMs', timeouts.connectMs, 1);
  number('timeouts.headersMs', timeouts.headersMs, 1);
  number('timeouts.bodyMs', timeouts.bodyMs, 1);
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
