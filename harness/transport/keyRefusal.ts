/** What the transport knows once the run's key was refused: the status and how many answers said so. */
export interface KeyRefused {
  status: number;
  /** Requests carrying the key answered `status` when it was declared (all that had been answered). */
  count: number;
}

/**
 * Whether the endpoint refuses the run's API key, judged on the answers to the requests that carry
 * it (a check's deliberately missing, malformed or wrong key is not the run's key, so never counts):
 * when the first THRESHOLD of them that say anything of the key are all answered 401, the key is
 * declared refused and nothing more carrying it is sent, so a wrong key (or a variable holding
 * something else) costs THRESHOLD requests, not one per check, and is said once.
 * - Any other answer below 500 first (a 200, a 400 about the body, a 404) shows the key accepted:
 *   the rule never fires afterwards, so a key refused on one path alone is judged there, check by check.
 * - A 5xx, a 429 or no answer says nothing of the key: neither counts.
 * 401 only: a 403 is a key the endpoint knows and forbids something (a region, a model), not a wrong one.
 */
export class KeyRefusal {
  static readonly THRESHOLD = 3;
  static readonly STATUS = 401;
  #refused = 0;
  #accepted = false;
  #declared: KeyRefused | undefined;

  /** Why a request carrying the key is not sent, or undefined when it may be. */
  refusal(): string | undefined {
    const d = this.#declared;
    return d === undefined ? undefined : `the key was refused: every request carrying it was answered ${d.status} (${d.count} of ${d.count})`;
  }

  declared(): KeyRefused | undefined {
    return this.#declared;
  }

  /** The status a request carrying the key was answered with. */
  answered(status: number): void {
    if (this.#accepted || this.#declared !== undefined) return;
    if (status >= 500 || status === 429) return;
    if (status !== KeyRefusal.STATUS) {
      this.#accepted = true;
      return;
    }
    this.#refused += 1;
    if (this.#refused >= KeyRefusal.THRESHOLD) this.#declared = { status, count: this.#refused };
  }
}
