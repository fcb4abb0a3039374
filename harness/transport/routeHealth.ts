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
export class RouteHealth {
  static readonly THRESHOLD = 3;
  static readonly SEVERAL = 2;
  /** Per route: silences in a row since its last answer, and the first of them. */
  readonly #silences = new Map<string, { count: number; first: string }>();
  readonly #declared = new Map<string, string>();
  #rootSilent: string | undefined;
  #endpoint: string | undefined;

  /** Why a request to `route` is not sent, or undefined when it may be. */
  refusal(route: string): string | undefined {
    if (this.#endpoint !== undefined) return `the endpoint was declared unresponsive: ${this.#endpoint}`;
    const why = this.#declared.get(route);
    return why === undefined ? undefined : `${route} was declared unresponsive: ${why}`;
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
   * `timedOut`, it waited its whole timeout or deadline.
   */
  silent(route: string, cause: string, how: { probe?: boolean; timedOut?: boolean } = {}): void {
    if (this.#endpoint !== undefined || this.#declared.has(route)) return;
    const seen = this.#silences.get(route) ?? { count: 0, first: cause };
    seen.count += 1;
    this.#silences.set(route, seen);
    if (how.probe) this.#declared.set(route, `a minimal valid request got no answer: ${cause}`);
    else if (how.timedOut) this.#declared.set(route, `a request waited its whole timeout: ${cause}`);
    else if (seen.count >= RouteHealth.THRESHOLD) this.#declared.set(route, `${seen.count} requests in a row got no answer; the first: ${seen.first}`);
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
    this.#endpoint = `${silentRoutes.length} routes got no answer (${silentRoutes.join(', ')}), and ${this.#rootSilent}`;
  }
}
