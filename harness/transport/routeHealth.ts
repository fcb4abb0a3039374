/**
 * Which routes still answer, judged over the whole run, so silence costs one wait, not one per
 * request. Only silence counts: a request that got any HTTP answer, whatever its status, is
 * evidence about that request and never toward declaring anything unresponsive.
 * - A route (method, path, streamed or not: the key a request carries) is declared silent once
 *   THRESHOLD requests in a row got no answer there (refused, reset, not HTTP); at once when one
 *   timed out (no headers in time, a stalled or overrunning body: the next request must not wait
 *   again) or when the smallest valid request to it (a probe) got none.
 * - The whole endpoint is declared only when its root is silent too (a probe of it got no answer)
 *   and at least SEVERAL routes are silent: a server that hangs on chat and answers its model list
 *   is broken on chat, not down.
 * Not sent to a declared route or endpoint: a request fails citing the first cause.
 */
/** The silence a declaration rests on: its HARNESS_ code and what happened, without where. */
export interface Silence {
  code: string;
  what: string;
}

/**
 * Why requests to a route are not sent: the sentence (`why`), what was declared (a route, or
 * `endpoint`), on what grounds (`grounds`: "3 requests in a row got no answer; the first: ..."), and
 * the silence at its root.
 */
export interface Declaration {
  why: string;
  declared: string;
  grounds: string;
  root: Silence;
}

export class RouteHealth {
  static readonly THRESHOLD = 3;
  static readonly SEVERAL = 2;
  /** Per route: silences in a row since its last answer, and the first of them. */
  readonly #silences = new Map<string, { count: number; first: string; root: Silence }>();
  readonly #declared = new Map<string, { why: string; root: Silence }>();
  #rootSilent: string | undefined;
  #endpoint: { why: string; root: Silence } | undefined;

  /** Why a request to `route` is not sent, or undefined when it may be. */
  refusal(route: string): string | undefined {
    return this.declaration(route)?.why;
  }

  /** Why a request to `route` is not sent, typed, or undefined when it may be. */
  declaration(route: string): Declaration | undefined {
    if (this.#endpoint !== undefined) return { why: `the endpoint was declared unresponsive: ${this.#endpoint.why}`, declared: 'endpoint', grounds: this.#endpoint.why, root: this.#endpoint.root };
    const found = this.#declared.get(route);
    return found === undefined ? undefined : { why: `${route} was declared unresponsive: ${found.why}`, declared: route, grounds: found.why, root: found.root };
  }

  /** Whether the whole endpoint was declared unresponsive. */
  get down(): boolean {
    return this.#endpoint !== undefined;
  }

  /** Any HTTP answer on `route`: its silences no longer run in a row. */
  answered(route: string): void {
    this.#silences.delete(route);
  }

  /**
   * No answer on `route`. `how`: `probe`, the request was the smallest valid one (servedGate.ts);
   * `timedOut`, it waited its whole timeout or deadline. `root`: the silence itself, typed (`cause` says where too).
   */
  silent(route: string, cause: string, how: { probe?: boolean; timedOut?: boolean } = {}, root: Silence = { code: 'HARNESS_UNRESPONSIVE', what: cause }): void {
    if (this.#endpoint !== undefined || this.#declared.has(route)) return;
    const seen = this.#silences.get(route) ?? { count: 0, first: cause, root };
    seen.count += 1;
    this.#silences.set(route, seen);
    if (how.probe) this.#declared.set(route, { why: `a minimal valid request got no answer: ${cause}`, root });
    else if (how.timedOut) this.#declared.set(route, { why: `a request waited its whole timeout: ${cause}`, root });
    else if (seen.count >= RouteHealth.THRESHOLD) this.#declared.set(route, { why: `${seen.count} requests in a row got no answer; the first: ${seen.first}`, root: seen.root });
    this.#judgeEndpoint();
  }

  /** A probe of the server's root got no answer (`cause`), or, with undefined, some answer. */
  root(cause: string | undefined): void {
    this.#rootSilent = cause;
    this.#judgeEndpoint();
  }

  #judgeEndpoint(): void {
    if (this.#endpoint !== undefined || this.#rootSilent === undefined) return;
    const silentRoutes = [...this.#silences.keys()];
    if (silentRoutes.length < RouteHealth.SEVERAL) return;
    this.#endpoint = { why: `${silentRoutes.length} routes got no answer (${silentRoutes.join(', ')}), and ${this.#rootSilent}`, root: this.#silences.get(silentRoutes[0]!)!.root };
  }
}
