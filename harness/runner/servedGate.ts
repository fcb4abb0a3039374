import { NOT_CAPTURED_HEADER } from '#harness/core/notCaptured.ts';
import type { Exchange } from '#harness/core/exchange.ts';
import type { CheckResponse, ServedVerdict } from '#harness/checks/index.ts';
import { MESSAGES_PATH } from '#harness/core/messagesPaths.ts';
import { isUnspecified, type Spec } from '#harness/spec/model.ts';
import { isMalformedResponseError, isTransportError, PRIORITY, type SendRequest } from '#harness/transport/index.ts';
import { leftOutByRequest, outOfScope } from '#harness/spec/features.ts';

/** One endpoint of the spec on one base it is served under, and the feature it belongs to. */
export interface Route {
  endpoint: string;
  base: string;
  method: 'GET' | 'POST';
  path: string;
  feature: string;
}

/**
 * The breaker's key for a request to `route` (transport/interceptors/breaker.ts): the endpoint as
 * the description writes it, and whether it streams, since a server may hang on streams only.
 */
export function routeKey(spec: Spec, route: Route, streamed: boolean): string {
  return `${route.method} ${spec.bases[route.base]?.placeholder ?? route.base}${route.path}${streamed ? ' (streamed)' : ''}`;
}

/** Every endpoint of the spec on every base it is served under. */
export function routesOf(spec: Spec): Route[] {
  return Object.entries(spec.endpoints).flatMap(([endpoint, ep]) => {
    const path = isUnspecified(ep.path) ? MESSAGES_PATH : ep.path;
    return ep.bases.map((base) => ({ endpoint, base, method: ep.method, path, feature: ep.features[base]! }));
  });
}


/** A valid request to a route: the smallest the spec allows, for the model given. */
export function validRequest(route: Route, model: string): { body?: unknown } {
  if (route.method === 'GET') return {};
  if (route.endpoint === 'fim_completions') return { body: { model, prompt: 'def add(a, b):\n', suffix: '\n    return c\n', max_tokens: 16 } };
  return { body: { model, max_tokens: 16, messages: [{ role: 'user', content: 'Say hello in five words.' }] } };
}

/** An answer's media type, without its parameters ('' when it names none). */
const mediaTypeOf = (res: CheckResponse): string => (res.headers['content-type'] ?? '').split(';')[0]!.trim();

/** What an answer is, for comparing two: status, media type, and the error's type and code when JSON. */
async function kindOf(res: CheckResponse): Promise<string> {
  const media = mediaTypeOf(res);
  let error = '';
  try {
    const body = media === 'application/json' ? ((await res.json()) as { error?: { type?: unknown; code?: unknown } }) : (await res.text(), undefined);
    error = JSON.stringify([body?.error?.type ?? null, body?.error?.code ?? null]);
  } catch {
    error = 'unreadable';
  }
  return `${res.status} ${media} ${error}`;
}

/**
 * Why a successful answer is not of the kind every route of the service answers a plain request
 * with (JSON), or undefined when it is: `{}` is JSON (the schema checks judge its shape), an HTML page
 * or an empty stream is not. A body that cannot be read at all (reset, timeout) says nothing of its kind.
 */
async function notJson(res: CheckResponse): Promise<string | undefined> {
  const media = mediaTypeOf(res);
  try {
    await res.json();
    return undefined;
  } catch (err) {
    // JSON bytes the endpoint broke (not UTF-8, without end) are still its answer: the checks judge them.
    if (!isMalformedResponseError(err) || err.code !== 'MALFORMED_JSON') return undefined;
    return `${media === '' ? 'no content type' : media} and a body that is not JSON (${err.message})`;
  }
}

/** Statuses a router gives a path it does not serve; 401, 429 or 5xx say nothing of the route. */
const NOT_SERVED_STATUSES = new Set([400, 404, 405, 410, 422, 501]);

export interface GateOptions {
  spec: Spec;
  without: readonly string[];
  /** The target's id of the model a valid request to the route names. */
  modelFor(route: Route): string;
  urlOf(route: Route, path: string): string;
  headers(): Record<string, string>;
  send(request: SendRequest): Promise<CheckResponse>;
}

/**
 * Whether each route is served, asked once per run: a valid request to it is compared with a
 * request to a path that cannot exist on the same base. When the valid request is refused as the
 * missing path is (same status, same kind of answer: a 404 page, a router's 400 to every unknown
 * path), the route is not served, and every check that sends there is blocked by the route's
 * `endpoint.*.served` check instead of failing (or passing) on a refusal of the route itself. A
 * feature the run leaves out (`--without`) is out of scope: its checks are skipped.
 */
export class ServedGate {
  /** Every endpoint of the spec on every base it is served under. */
  readonly routes: readonly Route[];
  readonly #options: GateOptions;
  readonly #verdicts = new Map<string, Promise<ServedVerdict>>();
  #asked = false;

  constructor(options: GateOptions) {
    this.#options = options;
    this.routes = routesOf(options.spec);
  }

  /** The route a request goes to, if it goes to one of the spec's endpoints. */
  routeOf(base: string, method: string, path: string): Route | undefined {
    return this.routes.find((r) => r.base === base && r.method === method && r.path === path);
  }

  /**
   * Whether `route` is served. The first question asks about every route at once, and probes a
   * stream too: a route that hangs costs the run one timeout in all, not one per route in turn.
   */
  verdict(route: Route): Promise<ServedVerdict> {
    if (!this.#asked) {
      this.#asked = true;
      for (const r of this.routes) void this.verdict(r).catch(() => undefined);
      for (const r of this.routes) if (r.endpoint === 'chat_completions') void this.#probeStream(r).catch(() => undefined);
    }
    const key = `${route.endpoint}@${route.base}`;
    let v = this.#verdicts.get(key);
    if (!v) {
      v = this.#ask(route);
      this.#verdicts.set(key, v);
    }
    return v;
  }

  /** A valid streamed chat request on a chat route, read to its end: a server that hangs on streams shows it now. */
  async #probeStream(route: Route): Promise<void> {
    if (this.#options.without.includes(route.feature)) return;
    const { body } = validRequest(route, this.#options.modelFor(route));
    const streamed = { ...(body as object), stream: true };
    // A run that leaves streaming out sends no stream, not even the harness's own probe of one.
    if (leftOutByRequest(this.#options.spec, this.#options.without, streamed) !== undefined) return;
    const res = await this.#options.send({ method: 'POST', url: this.#options.urlOf(route, route.path), headers: { ...this.#options.headers(), 'content-type': 'application/json' }, body: streamed, probe: true, priority: PRIORITY.probe, route: routeKey(this.#options.spec, route, true) });
    if (res.status !== 200) return void (await res.text().catch(() => undefined));
    for await (const _ of res.events()) {
      // read to the end; what the stream says is for the checks
    }
  }

  async #ask(route: Route): Promise<ServedVerdict> {
    if (this.#options.without.includes(route.feature)) return { outOfScope: outOfScope(route.feature) };
    const { send, urlOf, headers, modelFor } = this.#options;
    const valid = validRequest(route, modelFor(route));
    const jsonHeaders: Record<string, string> = valid.body === undefined ? {} : { 'content-type': 'application/json' };
    let asked: CheckResponse;
    try {
      asked = await send({ method: route.method, url: urlOf(route, route.path), headers: { ...headers(), ...jsonHeaders }, ...valid, probe: true, priority: PRIORITY.probe, route: routeKey(this.#options.spec, route, false) });
    } catch (err) {
      // The run's key was refused before this probe went out: nothing is known of the route, and the
      // checks that send there with the key are refused in their turn; those sending none still run.
      if (isTransportError(err) && err.code === 'HARNESS_KEY_REFUSED') return { unknown: err.message };
      // Refused with a wait beyond the cap (not waited out): that tells no more of the route than "not now" does.
      if (isTransportError(err) && err.code === 'HARNESS_WAIT_REFUSED') return { unavailable: `a valid request to ${route.method} ${this.#options.spec.bases[route.base]?.placeholder ?? route.base}${route.path} was refused: ${err.what}: whether it is served cannot be told`, evidence: [err.exchange] };
      throw err;
    }
    // A recording that holds no answer to the probe: nothing is known, so nothing is blocked either.
    const notCaptured = { unknown: `the fixture set holds no capture answering ${route.method} ${route.path} (the probe of whether it is served)` };
    if (asked.headers[NOT_CAPTURED_HEADER] !== undefined) return notCaptured;
    const base = this.#options.spec.bases[route.base]?.placeholder ?? route.base;
    // "Not now" on every try the retry guidance allows (its waits already spent) says nothing of the route either way.
    if (this.#options.spec.errors.retry.statuses.includes(asked.status)) {
      await asked.text().catch(() => undefined);
      const after = asked.headers['retry-after'];
      return { unavailable: `a valid request to ${route.method} ${base}${route.path} was answered HTTP ${asked.status} on each of its ${asked.exchange.attempts} attempts${after === undefined ? '' : ` (Retry-After: ${after})`}: whether it is served cannot be told`, evidence: [asked.exchange] };
    }
    // An answer that is not a refusal of the request itself (success, auth, a fault) says the
    // route exists, unless it is a success the service never gives: a web page, an empty stream.
    if (!NOT_SERVED_STATUSES.has(asked.status)) {
      const wrongKind = asked.status >= 200 && asked.status < 300 ? await notJson(asked) : void (await asked.text().catch(() => undefined));
      if (wrongKind === undefined) return { served: true, evidence: [asked.exchange] };
      return { served: false, why: `a valid request to ${route.method} ${base}${route.path} was answered HTTP ${asked.status} with ${wrongKind}, where the service answers JSON: whatever answers there is not the endpoint`, evidence: [asked.exchange] };
    }
    const missing = await send({ method: route.method, url: urlOf(route, '/svc-conformance-no-such-endpoint'), headers: { ...headers(), ...jsonHeaders }, ...valid, priority: PRIORITY.probe });
    if (missing.headers[NOT_CAPTURED_HEADER] !== undefined) return notCaptured;
    const [a, b] = await Promise.all([kindOf(asked), kindOf(missing)]);
    const evidence: Exchange[] = [asked.exchange, missing.exchange];
    if (a !== b) return { served: true, evidence };
    return { served: false, why: `a valid request to ${route.method} ${base}${route.path} was answered HTTP ${asked.status}, as a path that does not exist is: the endpoint is not served there`, evidence };
  }
}
