import type { Dispatcher } from 'undici';
import { NOT_CAPTURED_HEADER } from '#harness/core/notCaptured.ts';
import { DispatchEnded, NO_ANSWER } from '../errors.ts';
import type { KeyRefusal } from '../keyRefusal.ts';
import { classifyNetworkError } from '../networkError.ts';
import type { RouteHealth } from '../routeHealth.ts';
import type { Timing } from '../timing.ts';
import { contextOf, type RequestContext } from './context.ts';
import type { Waiting } from '../types.ts';
import { ForwardingHandler, failedController } from './forwardingHandler.ts';

type Controller = Dispatcher.DispatchController;

/** A server that answered its root once may still die: it is asked again at most this often. */
const ROOT_PROBE_EVERY_MS = 30_000;

export interface BreakerOptions {
  health: RouteHealth;
  keys: KeyRefusal;
  timing: Timing;
  /** Whether the server at `origin` answers anything at its root: why not, or undefined when it did. */
  probeRoot(origin: string): Promise<string | undefined>;
  /** Scrubs secrets from a cause before it is kept (a URL may carry the key). */
  redact(text: string): string;
}

/**
 * The circuit breaker, as a dispatch interceptor (undici's own circuit-breaker is keyed by a
 * `getKey` function; here the key is the route the request carries, `RequestContext.route`):
 * - before a dispatch: not sent when the run was stopped, the request carries a refused key
 *   (keyRefusal.ts), or its route or the whole endpoint was declared unresponsive (routeHealth.ts);
 * - after it: any HTTP answer clears its route's silences (a 599 of a replay that captured nothing
 *   is the harness's own gap, not the endpoint's); no answer counts against the route, and asks
 *   whether the server's root answers at all;
 * - once a route or the endpoint is declared, what is in flight to it is abandoned.
 * Composed inside `limit`, so a request that waited in line is judged when its turn comes.
 */
export class Breaker {
  readonly #options: BreakerOptions;
  readonly #flights = new Set<Flight>();
  readonly #probedAt = new Map<string, number>();
  #interrupted: string | undefined;
  #probing = 0;

  constructor(options: BreakerOptions) {
    this.#options = options;
  }

  /** Root probes still waiting for an answer. */
  get probing(): number {
    return this.#probing;
  }

  interceptor(): Dispatcher.DispatcherComposeInterceptor {
    return (dispatch) => (opts, handler) => {
      const context = contextOf(opts);
      const route = context?.route ?? `${opts.method} ${opts.path.split('?')[0]}`;
      const refused = this.#refusal(route, context?.keyed === true);
      if (refused !== undefined) {
        handler.onResponseError?.(failedController(refused), refused);
        return true;
      }
      const flight = new Flight(handler, this, { route, keyed: context?.keyed === true, probe: context?.probe === true, quiet: context?.load === true, origin: String(opts.origin ?? ''), where: `${opts.method} ${String(opts.origin ?? '')}${opts.path}`, context });
      this.#flights.add(flight);
      return dispatch(opts, flight);
    };
  }

  /** What each request on the wire waits on now: a retry's wait, its response headers, or its body (the bounds that end each). */
  waiting(): Waiting[] {
    const { connectMs, headersMs, totalMs } = this.#options.timing;
    const out: Waiting[] = [];
    for (const f of this.#flights) {
      const c = f.info.context;
      const request = this.#options.redact(f.info.where);
      if (c?.waiting) out.push({ request, on: 'retry', since: c.waiting.since, until: c.waiting.until, status: c.waiting.status, retryAfter: c.waiting.retryAfter });
      else if (f.headersAt !== undefined) out.push({ request, on: 'body', since: f.headersAt, until: f.headersAt + (c?.deadlineMs ?? totalMs) });
      // Still in line for a slot of the limit (no attempt yet): nothing sent, so nothing waited on at the endpoint.
      else if (c === undefined || c.attemptStartedAt > 0) {
        const since = c?.attemptStartedAt ?? f.startedAt;
        out.push({ request, on: 'headers', since, until: since + connectMs + headersMs });
      }
    }
    return out;
  }

  /** The run was stopped: nothing more is sent, and what is in flight is abandoned now. */
  interrupt(why: string): void {
    this.#interrupted ??= why;
    for (const f of this.#flights) f.abort(new DispatchEnded('HARNESS_INTERRUPTED', `abandoned: ${why}`));
  }

  #refusal(route: string, keyed: boolean): DispatchEnded | undefined {
    if (this.#interrupted !== undefined) return new DispatchEnded('HARNESS_INTERRUPTED', `not sent: ${this.#interrupted}`);
    const key = keyed ? this.#options.keys.refusal() : undefined;
    if (key !== undefined) return new DispatchEnded('HARNESS_KEY_REFUSED', `not sent: ${key}`);
    const declared = this.#options.health.declaration(route);
    return declared === undefined ? undefined : new DispatchEnded('HARNESS_UNRESPONSIVE', `not sent: ${declared.why}`, declared);
  }

  /** @internal a flight got response headers */
  answered(flight: Flight, status: number, notCaptured: boolean): void {
    if (notCaptured) return;
    if (!flight.info.quiet) this.#options.health.answered(flight.info.route);
    if (flight.info.keyed) this.#options.keys.answered(status);
  }

  /** @internal a flight ended, with the error that ended it if any */
  ended(flight: Flight, error?: Error): void {
    this.#flights.delete(flight);
    if (error === undefined || flight.info.quiet || error instanceof DispatchEnded && error.code !== 'HARNESS_TIMEOUT') return;
    const failed = classifyNetworkError(error, this.#options.timing);
    if (failed === undefined || !NO_ANSWER.has(failed.code)) return;
    const cause = this.#options.redact(`${failed.code}: ${failed.what} — ${flight.info.where}`);
    this.#options.health.silent(flight.info.route, cause, { probe: flight.info.probe, timedOut: failed.code === 'HARNESS_TIMEOUT' }, { code: failed.code, what: this.#options.redact(failed.what) });
    this.#probeRoot(flight.info.origin);
    this.#abandonDeclared();
  }

  #probeRoot(origin: string): void {
    if (origin === '' || performance.now() - (this.#probedAt.get(origin) ?? -Infinity) <= ROOT_PROBE_EVERY_MS) return;
    this.#probedAt.set(origin, performance.now());
    this.#probing += 1;
    void this.#options
      .probeRoot(origin)
      .then((why) => {
        this.#options.health.root(why === undefined ? undefined : this.#options.redact(`a probe of ${origin}/ ${why}`));
        this.#abandonDeclared();
      })
      .finally(() => (this.#probing -= 1));
  }

  #abandonDeclared(): void {
    for (const f of this.#flights) {
      const declared = this.#options.health.declaration(f.info.route);
      if (declared !== undefined) f.abort(new DispatchEnded('HARNESS_UNRESPONSIVE', `abandoned: ${declared.why}`, declared));
    }
  }
}

interface FlightInfo {
  /** The request's context, read for what it waits on (RequestContext `waiting`, its attempt's start). */
  context: RequestContext | undefined;
  route: string;
  keyed: boolean;
  probe: boolean;
  /** A load-phase request: its silence under load is judged by the load checks, and declares no route. */
  quiet: boolean;
  origin: string;
  where: string;
}

/** One dispatch through the breaker: it reports its answer, or its silence, and can be abandoned. */
class Flight extends ForwardingHandler {
  #controller: Controller | undefined;
  #pending: Error | undefined;
  readonly startedAt = performance.now();
  /** performance.now() when its (last attempt's) response headers came. */
  headersAt: number | undefined;

  constructor(next: Dispatcher.DispatchHandler, readonly breaker: Breaker, readonly info: FlightInfo) {
    super(next);
  }

  abort(reason: Error): void {
    if (this.#controller) this.#controller.abort(reason);
    else this.#pending ??= reason;
  }

  override onRequestStart(controller: Controller, context: unknown): void {
    this.#controller = controller;
    super.onRequestStart(controller, context);
    if (this.#pending) controller.abort(this.#pending);
  }

  override onResponseStart(controller: Controller, statusCode: number, headers: Parameters<ForwardingHandler['onResponseStart']>[2], statusMessage?: string): void {
    this.headersAt = performance.now();
    this.breaker.answered(this, statusCode, headers[NOT_CAPTURED_HEADER] !== undefined);
    super.onResponseStart(controller, statusCode, headers, statusMessage);
  }

  override onResponseEnd(...args: Parameters<ForwardingHandler['onResponseEnd']>): void {
    this.breaker.ended(this);
    super.onResponseEnd(...args);
  }

  override onResponseError(controller: Controller, error: Error): void {
    this.breaker.ended(this, error);
    super.onResponseError(controller, error);
  }
}
