/**
 * Whether the endpoint still answers, judged over the whole run, so a dead endpoint ends the run in
 * about one timeout instead of one timeout per request:
 * - a path (method and path) that got no answer (refused, reset, timed out) THRESHOLD times in a
 *   row is declared unresponsive: nothing more is sent there;
 * - the whole endpoint is, once THRESHOLD requests in a row, on more than one path, got only a 5xx
 *   after their retries;
 * - a path at once when a minimal valid request to it (a probe of whether it is served) got no answer;
 * - or at once, when a request got no answer and a probe of the server's root got none either
 *   (createTransport): a dead endpoint then costs one timeout, not one per wave of requests.
 * A request not sent fails citing the first cause. An answer below 500 whose body came whole
 * clears the counts. A run of failures on one path alone never stops the other paths: a server
 * that hangs on chat and answers the model list is broken on chat, not down; and a 5xx on one path
 * (many in a row while a property check shrinks a request it refuses with 500) stops nothing.
 */
export class EndpointHealth {
  static readonly THRESHOLD = 3;
  #run: { cause: string; where: string }[] = [];
  readonly #byPath = new Map<string, { count: number; first: string }>();
  readonly #deadPaths = new Map<string, string>();
  #declared: string | undefined;

  /** Why a request to `where` is not sent, or undefined when it may be. */
  refusal(where: string): string | undefined {
    if (this.#declared !== undefined) return `the endpoint was declared unresponsive: ${this.#declared}`;
    const path = this.#deadPaths.get(where);
    return path === undefined ? undefined : `${where} was declared unresponsive: ${path}`;
  }

  /** An answer that shows the endpoint alive there. */
  alive(where: string): void {
    this.#run = [];
    this.#byPath.delete(where);
  }

  /** The endpoint gives no answer at all (a probe after a failure got none either): stop sending. */
  down(cause: string): void {
    this.#declared ??= cause;
  }

  /**
   * `network`: no answer at all (else a 5xx after retries); `where`: method and path; `probe`: the
   * request was the smallest valid one (servedGate.ts), so no answer to it says the path is dead.
   */
  failed(cause: string, where: string, network: boolean, probe = false): void {
    if (this.#declared !== undefined) return;
    if (network) {
      // No answer says something of this path; whether the whole server is down, the probe of its root tells.
      if (this.#deadPaths.has(where)) return;
      if (probe) return void this.#deadPaths.set(where, `a minimal valid request got no answer: ${cause}`);
      const seen = this.#byPath.get(where) ?? { count: 0, first: cause };
      seen.count += 1;
      this.#byPath.set(where, seen);
      if (seen.count >= EndpointHealth.THRESHOLD) this.#deadPaths.set(where, `${seen.count} requests in a row got no answer; the first: ${seen.first}`);
      return;
    }
    this.#run.push({ cause, where });
    if (this.#run.length >= EndpointHealth.THRESHOLD && new Set(this.#run.map((f) => f.where)).size > 1) {
      this.#declared = `${this.#run.length} requests in a row, on ${new Set(this.#run.map((f) => f.where)).size} paths, failed; the first: ${this.#run[0]!.cause}`;
    }
  }
}

/** How many 5xx answers a run retries in all: a persistent fault must not multiply the run time. */
export class RetryBudget {
  #left: number;
  constructor(retries: number) {
    this.#left = retries;
  }

  /** Whether one more retry of this status may be spent (429 is never counted: it is waited out). */
  take(status: number): boolean {
    if (status < 500) return true;
    if (this.#left <= 0) return false;
    this.#left -= 1;
    return true;
  }
}
